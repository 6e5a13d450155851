# The browser app as one HTML file: the page template with the page's script and the app's
# (emscripten's JavaScript with the WebAssembly and the fonts inlined) in it.
#   cmake -DTEMPLATE=page.html -DPAGE_SCRIPT=page.js -DAPP_SCRIPT=app.js -DVERSION=v -DOUT=rope-explorer.html -P assemble_page.cmake
file(READ ${TEMPLATE} page)
file(READ ${PAGE_SCRIPT} page_script)
file(READ ${APP_SCRIPT} app_script)
foreach(script page_script app_script)
  # inside <script>, only "</script" would end it early
  string(REPLACE "</script" "<\\/script" ${script} "${${script}}")
endforeach()
string(REPLACE "@ROPE_VERSION@" "${VERSION}" page "${page}")
string(REPLACE "@ROPE_PAGE_SCRIPT@" "${page_script}" page "${page}")
string(REPLACE "@ROPE_APP_SCRIPT@" "${app_script}" page "${page}")
file(WRITE ${OUT}.part "${page}")
file(RENAME ${OUT}.part ${OUT})
