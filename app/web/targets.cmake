# The browser build (ROPE_WEB, under emcmake; .ci/setup --web): the same core, plot, figures,
# sessions, lessons and GUI as the desktop app, with the export back ends that need no cairo or libav
# (SVG, CSV, the HTML page; PNG as the browser's picture of the SVG), the window on emscripten's
# GLFW and WebGL 2, and one self-contained page: build-web/rope-explorer.html.
# Included by app/CMakeLists.txt (its generated headers are that folder's).
set(ROPE_APP ${CMAKE_CURRENT_SOURCE_DIR})
set(ROPE_WEB_DIR ${CMAKE_CURRENT_SOURCE_DIR}/web)

add_library(rope_export STATIC
  ${ROPE_APP}/export/animation.cpp
  ${ROPE_APP}/export/export.cpp
  ${ROPE_APP}/export/file_formats.cpp
  ${ROPE_APP}/export/gif_palette.cpp
  ${ROPE_APP}/export/html_page.cpp
  ${ROPE_APP}/export/still_writers.cpp
  ${ROPE_APP}/export/svg_writer.cpp
  ${ROPE_WEB_DIR}/web_writers.cpp
  ${ROPE_GENERATED}/html_sources.hpp
)
target_include_directories(rope_export PUBLIC ${ROPE_APP} PRIVATE ${ROPE_GENERATED})
target_link_libraries(rope_export PUBLIC rope_figures rope_io rope_session rope_stb PRIVATE rope_warnings)

# The command line's parsing that the window shares (--set lines, the window's options; the page's
# address is read with them).
add_library(rope_cli STATIC ${ROPE_APP}/cli/arguments.cpp ${ROPE_APP}/cli/window_options.cpp ${ROPE_APP}/gui/input/shortcut_list.cpp)
target_include_directories(rope_cli PUBLIC ${ROPE_APP})
target_link_libraries(rope_cli PUBLIC rope_core rope_session rope_weights PRIVATE rope_warnings)

# The window: emscripten's GLFW, WebGL 2 (OpenGL ES 3) and Dear ImGui, as on the desktop.
add_library(rope_gui STATIC
  ${ROPE_APP}/gui/app/actions.cpp
  ${ROPE_APP}/gui/app/app.cpp
  ${ROPE_APP}/gui/app/screen_layout.cpp
  ${ROPE_APP}/gui/app/reader_document.cpp
  ${ROPE_APP}/gui/app/small_screens.cpp
  ${ROPE_APP}/gui/app/app_state.cpp
  ${ROPE_APP}/gui/app/history.cpp
  ${ROPE_APP}/gui/app/ui_helpers.cpp
  ${ROPE_APP}/gui/app/ui_theme.cpp
  ${ROPE_APP}/gui/drivers/frame_drivers.cpp
  ${ROPE_APP}/gui/drivers/frame_stats.cpp
  ${ROPE_APP}/gui/drivers/soak.cpp
  ${ROPE_APP}/gui/input/input.cpp
  ${ROPE_APP}/gui/input/shortcuts.cpp
  ${ROPE_APP}/gui/panels/controls_panel.cpp
  ${ROPE_APP}/gui/panels/formula_strip.cpp
  ${ROPE_APP}/gui/panels/panel_builder.cpp
  ${ROPE_APP}/gui/panels/panel_figures.cpp
  ${ROPE_APP}/gui/panels/panel_grid.cpp
  ${ROPE_APP}/gui/panels/panel_set.cpp
  ${ROPE_APP}/gui/panels/panel_ui.cpp
  ${ROPE_APP}/gui/presentation/lesson_editor.cpp
  ${ROPE_APP}/gui/presentation/pointing.cpp
  ${ROPE_APP}/gui/presentation/teaching.cpp
  ${ROPE_APP}/gui/presentation/presenter_view.cpp
  ${ROPE_APP}/gui/dialogs/export_dialog.cpp
  ${ROPE_APP}/gui/dialogs/handout_job.cpp
  ${ROPE_APP}/gui/dialogs/recording_fields.cpp
  ${ROPE_APP}/gui/dialogs/session_dialog.cpp
  ${ROPE_APP}/gui/dialogs/page_files.cpp
  ${ROPE_APP}/gui/platform/fonts.cpp
  ${ROPE_APP}/gui/platform/gl_renderer.cpp
  ${ROPE_APP}/gui/platform/glfw_input.cpp
  ${ROPE_APP}/gui/platform/heatmap_renderer.cpp
  ${ROPE_APP}/gui/platform/imgui_canvas.cpp
  ${ROPE_GENERATED}/shader_sources.hpp
)
target_include_directories(rope_gui PUBLIC ${ROPE_APP} PRIVATE ${ROPE_GENERATED})
target_link_libraries(rope_gui PUBLIC rope_figures rope_export rope_session rope_io rope_cli rope_imgui PRIVATE rope_warnings)

# The page: rope-explorer.js (the WebAssembly inlined) and the DejaVu Sans files at the paths the app
# reads them from, then one HTML file from our page template with that script inlined.
add_executable(rope-explorer-web ${ROPE_WEB_DIR}/web_main.cpp ${ROPE_WEB_DIR}/web_platform.cpp ${ROPE_WEB_DIR}/page_bridge.cpp ${ROPE_WEB_DIR}/web_services.cpp
                                 ${ROPE_WEB_DIR}/gl_state_cache.cpp)
target_link_libraries(rope-explorer-web PRIVATE rope_gui rope_warnings)
set(ROPE_WEB_FONTS /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf)
set(ROPE_WEB_LINK_OPTIONS -sUSE_GLFW=3 -sUSE_WEBGL2=1 -sFULL_ES3=1 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2
    -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB -sSINGLE_FILE=1 -sENVIRONMENT=web -sEXIT_RUNTIME=0 -sGL_TRACK_ERRORS=0
    "-sEXPORTED_RUNTIME_METHODS=['FS','ccall','cwrap','UTF8ToString']")
foreach(font ${ROPE_WEB_FONTS})
  list(APPEND ROPE_WEB_LINK_OPTIONS "SHELL:--embed-file ${font}@${font}")
endforeach()
target_link_options(rope-explorer-web PRIVATE ${ROPE_WEB_LINK_OPTIONS})
set_target_properties(rope-explorer-web PROPERTIES OUTPUT_NAME rope-explorer-app SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
set_property(TARGET rope-explorer-web APPEND PROPERTY LINK_DEPENDS ${ROPE_WEB_FONTS})

set(ROPE_WEB_PAGE ${PROJECT_BINARY_DIR}/rope-explorer.html)
add_custom_command(
  OUTPUT ${ROPE_WEB_PAGE}
  COMMAND ${CMAKE_COMMAND} -DTEMPLATE=${PROJECT_SOURCE_DIR}/assets/web/page.html -DPAGE_SCRIPT=${PROJECT_SOURCE_DIR}/assets/web/page.js
          -DAPP_SCRIPT=$<TARGET_FILE:rope-explorer-web> -DVERSION=${PROJECT_VERSION} -DOUT=${ROPE_WEB_PAGE}
          -P ${PROJECT_SOURCE_DIR}/cmake/assemble_page.cmake
  DEPENDS rope-explorer-web ${PROJECT_SOURCE_DIR}/assets/web/page.html ${PROJECT_SOURCE_DIR}/assets/web/page.js
          ${PROJECT_SOURCE_DIR}/cmake/assemble_page.cmake
  COMMENT "Writing rope-explorer.html (one self-contained page)"
  VERBATIM)
add_custom_target(rope-explorer-page ALL DEPENDS ${ROPE_WEB_PAGE})
