# Writes the files named in INPUTS (|-separated) into OUT as C++ raw strings (<PREFIX>_<name>_<ext>):
# the GLSL of shaders/ and the data of assets/, compiled in so nothing is looked up at run time.
if(NOT PREFIX)
  set(PREFIX kShader)
endif()
set(content "// Generated from shaders/ by app/embed_shaders.cmake. Do not edit.\n#pragma once\n\n")
string(REPLACE "|" ";" INPUT_LIST "${INPUTS}")
foreach(input ${INPUT_LIST})
  get_filename_component(name ${input} NAME_WE)
  string(MAKE_C_IDENTIFIER ${name} name)  # user-guide.md: kAsset_user_guide_md
  get_filename_component(ext ${input} EXT)
  string(REPLACE "." "" ext ${ext})
  file(READ ${input} source)
  string(APPEND content "inline constexpr const char* ${PREFIX}_${name}_${ext} = R\"glsl(${source})glsl\";\n\n")
endforeach()
file(WRITE ${OUT} "${content}")
