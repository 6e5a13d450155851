# The browser build's dependencies (ROPE_WEB, under emcmake). Debian's -dev packages are for
# x86-64, so:
#   - header-only libraries come from the host's packages, each through a folder of its own (the
#     host's /usr/include holds glibc's headers too, which must not reach em++): Eigen
#     (libeigen3-dev), nlohmann/json (nlohmann-json3-dev), stb (libstb-dev);
#   - Dear ImGui 1.86 (with its GLFW and OpenGL 3 backends), zlib and libpng are compiled from
#     Debian's source packages, which .ci/setup --web fetches into ROPE_DEBIAN_SOURCES;
#   - GLFW 3 and OpenGL ES 3 (WebGL 2) are emscripten's own (linked with -sUSE_GLFW=3 -sUSE_WEBGL2=1).
enable_language(C)  # zlib, libpng and stb are C
# C++ exceptions as WebAssembly's own (the app's refusals are exceptions; emscripten's default would
# abort at the first throw), and WebAssembly SIMD where the desktop build would use SSE/AVX.
#
# The checked page (ROPE_WEB_CHECKED; .ci/setup --hardening builds it in build-web-checked):
# everything, Dear ImGui, zlib and libpng included, with AddressSanitizer (Debian's emscripten ships
# its runtime, libasan_rt, prebuilt in its frozen cache), at -O1 as AddressSanitizer's authors
# advise; emscripten's runtime assertions at their most (-sASSERTIONS=2) and every assignment of the
# stack pointer checked against the stack's end (-sSTACK_OVERFLOW_CHECK=2); the function names kept,
# so that a report names them; the link's own optimisation (binaryen's wasm-opt) at -O1 too. A report
# aborts the page: an uncaught exception, which fails the page's test. Its C++ exceptions go through
# JavaScript (-fexceptions), not WebAssembly's own: with emscripten 3.1.6 (clang 14) AddressSanitizer
# and -fwasm-exceptions do not go together (emscripten issue 14035): a throw in a function with catch
# handlers can trap ("RuntimeError: unreachable" in rope::ParamSet::parse at the first refused
# address key, which the page without the sanitizer refuses as it should; a small program that throws
# from a catch handler traps the same way).
if(ROPE_WEB_CHECKED)
  add_compile_options(-fexceptions -msimd128 -fsanitize=address -O1)
  add_link_options(-fexceptions -fsanitize=address -O1 -sASSERTIONS=2 -sSTACK_OVERFLOW_CHECK=2 --profiling-funcs)
else()
  add_compile_options(-fwasm-exceptions -msimd128)
  add_link_options(-fwasm-exceptions)
endif()
set(ROPE_DEBIAN_SOURCES "" CACHE PATH "Where Debian's source packages imgui, zlib and libpng1.6 are unpacked (.ci/setup --web)")
if(NOT IS_DIRECTORY "${ROPE_DEBIAN_SOURCES}")
  message(FATAL_ERROR "ROPE_DEBIAN_SOURCES='${ROPE_DEBIAN_SOURCES}' is not a folder: build the browser app with `bash .ci/setup --web`")
endif()
function(rope_debian_source var pattern)
  file(GLOB found LIST_DIRECTORIES true "${ROPE_DEBIAN_SOURCES}/${pattern}")
  list(FILTER found EXCLUDE REGEX "\\.(dsc|xz|gz|bz2)$")
  if(NOT found)
    message(FATAL_ERROR "no ${pattern} in ${ROPE_DEBIAN_SOURCES}: run `bash .ci/setup --web`")
  endif()
  list(GET found 0 dir)
  set(${var} "${dir}" PARENT_SCOPE)
endfunction()
rope_debian_source(ROPE_IMGUI_SOURCE "imgui-1.86*")
rope_debian_source(ROPE_ZLIB_SOURCE "zlib-1.2.13*")
rope_debian_source(ROPE_LIBPNG_SOURCE "libpng1.6-1.6.*")

# Header-only libraries from the host, each in a folder of its own.
set(ROPE_HOST_HEADERS ${CMAKE_BINARY_DIR}/host-headers)
file(MAKE_DIRECTORY ${ROPE_HOST_HEADERS})
foreach(dir nlohmann stb)
  if(NOT EXISTS ${ROPE_HOST_HEADERS}/${dir})
    file(CREATE_LINK /usr/include/${dir} ${ROPE_HOST_HEADERS}/${dir} SYMBOLIC)
  endif()
endforeach()
add_library(Eigen3::Eigen INTERFACE IMPORTED)
target_include_directories(Eigen3::Eigen SYSTEM INTERFACE /usr/include/eigen3)
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE ${ROPE_HOST_HEADERS})

# zlib and libpng, as Debian builds them (libpng's prebuilt configuration: every feature on).
add_library(rope_zlib STATIC
  ${ROPE_ZLIB_SOURCE}/adler32.c ${ROPE_ZLIB_SOURCE}/compress.c ${ROPE_ZLIB_SOURCE}/crc32.c ${ROPE_ZLIB_SOURCE}/deflate.c
  ${ROPE_ZLIB_SOURCE}/infback.c ${ROPE_ZLIB_SOURCE}/inffast.c ${ROPE_ZLIB_SOURCE}/inflate.c ${ROPE_ZLIB_SOURCE}/inftrees.c
  ${ROPE_ZLIB_SOURCE}/trees.c ${ROPE_ZLIB_SOURCE}/uncompr.c ${ROPE_ZLIB_SOURCE}/zutil.c)
target_include_directories(rope_zlib SYSTEM PUBLIC ${ROPE_ZLIB_SOURCE})
set_target_properties(rope_zlib PROPERTIES UNITY_BUILD OFF)
set(ROPE_PNGLIBCONF ${CMAKE_BINARY_DIR}/libpng/pnglibconf.h)
configure_file(${ROPE_LIBPNG_SOURCE}/scripts/pnglibconf.h.prebuilt ${ROPE_PNGLIBCONF} COPYONLY)
add_library(rope_libpng STATIC
  ${ROPE_LIBPNG_SOURCE}/png.c ${ROPE_LIBPNG_SOURCE}/pngerror.c ${ROPE_LIBPNG_SOURCE}/pngget.c ${ROPE_LIBPNG_SOURCE}/pngmem.c
  ${ROPE_LIBPNG_SOURCE}/pngpread.c ${ROPE_LIBPNG_SOURCE}/pngread.c ${ROPE_LIBPNG_SOURCE}/pngrio.c ${ROPE_LIBPNG_SOURCE}/pngrtran.c
  ${ROPE_LIBPNG_SOURCE}/pngrutil.c ${ROPE_LIBPNG_SOURCE}/pngset.c ${ROPE_LIBPNG_SOURCE}/pngtrans.c ${ROPE_LIBPNG_SOURCE}/pngwio.c
  ${ROPE_LIBPNG_SOURCE}/pngwrite.c ${ROPE_LIBPNG_SOURCE}/pngwtran.c ${ROPE_LIBPNG_SOURCE}/pngwutil.c)
target_include_directories(rope_libpng SYSTEM PUBLIC ${ROPE_LIBPNG_SOURCE} ${CMAKE_BINARY_DIR}/libpng)
target_compile_definitions(rope_libpng PRIVATE PNG_ARM_NEON_OPT=0 PNG_INTEL_SSE_OPT=0)
target_link_libraries(rope_libpng PUBLIC rope_zlib)
set_target_properties(rope_libpng PROPERTIES UNITY_BUILD OFF)

# stb's font rasteriser and rectangle packer, which Debian's ImGui takes from libstb.
set(ROPE_STB_IMPL ${CMAKE_BINARY_DIR}/stb/stb_implementation.c)
file(WRITE ${ROPE_STB_IMPL}.in "#define STB_TRUETYPE_IMPLEMENTATION\n#define STB_RECT_PACK_IMPLEMENTATION\n#include <stb/stb_rect_pack.h>\n#include <stb/stb_truetype.h>\n")
configure_file(${ROPE_STB_IMPL}.in ${ROPE_STB_IMPL} COPYONLY)
add_library(rope_stb STATIC ${ROPE_STB_IMPL})
target_include_directories(rope_stb SYSTEM PUBLIC ${ROPE_HOST_HEADERS})

# Dear ImGui 1.86 built with Debian's settings (debian/patches/0001-add-Makefile.patch: stb from
# libstb), and its OpenGL 3 renderer (the app feeds ImGui its input itself).
add_library(rope_imgui STATIC
  ${ROPE_IMGUI_SOURCE}/imgui.cpp ${ROPE_IMGUI_SOURCE}/imgui_draw.cpp ${ROPE_IMGUI_SOURCE}/imgui_tables.cpp
  ${ROPE_IMGUI_SOURCE}/imgui_widgets.cpp ${ROPE_IMGUI_SOURCE}/imgui_demo.cpp ${ROPE_IMGUI_SOURCE}/misc/cpp/imgui_stdlib.cpp
  ${ROPE_IMGUI_SOURCE}/backends/imgui_impl_opengl3.cpp)
# The app includes <imgui.h>, <imgui_stdlib.h> and <backends/...> as from Debian's package.
target_include_directories(rope_imgui SYSTEM PUBLIC ${ROPE_IMGUI_SOURCE} ${ROPE_IMGUI_SOURCE}/misc/cpp)
target_compile_definitions(rope_imgui PUBLIC
  IMGUI_DISABLE_STB_RECT_PACK_IMPLEMENTATION "IMGUI_STB_RECT_PACK_FILENAME=<stb/stb_rect_pack.h>"
  IMGUI_DISABLE_STB_TRUETYPE_IMPLEMENTATION "IMGUI_STB_TRUETYPE_FILENAME=<stb/stb_truetype.h>")
target_link_libraries(rope_imgui PUBLIC rope_stb)
set_target_properties(rope_imgui PROPERTIES UNITY_BUILD OFF)
