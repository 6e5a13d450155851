// Fuzz target: the browser page's address (#key=value&..., session/page_address.hpp), which anyone
// can put in a link. Whatever the fragment, parsing gives parameters and view keys or one-line
// refusals, never a crash; the parameters it accepts apply to a parameter set (or are refused with
// one line); and the address written for that state reads back to the same state.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "cli/arguments.hpp"
#include "session/page_address.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 4096) return 0;
    const std::string fragment(reinterpret_cast<const char*>(data), size);
    const rope::session::PageAddress a = rope::session::parse_page_address(fragment);
    for (const std::string& e : a.errors)
        if (e.empty() || e.find('\n') != std::string::npos) std::abort();  // one line each
    if (a.page && (*a.page < 0 || *a.page >= 16)) std::abort();
    rope::ParamSet params;
    for (const std::string& s : a.sets) {
        rope::ParamSet next = params;
        try {
            rope::cli::apply_sets(next, {s});
            next.validate();
            params = next;
        } catch (const std::exception&) {
            // refused with its line; the rest apply
        }
    }
    rope::session::ViewState view;
    if (a.page) view.page = *a.page;
    if (a.maximized) view.maximized = *a.maximized;
    if (a.theme) view.theme = *a.theme;
    if (a.presentation) view.presentation = *a.presentation;
    // the written address reads back to the same parameters
    const std::string written = rope::session::page_address_of(params, view, a.embed);
    const rope::session::PageAddress again = rope::session::parse_page_address(written);
    if (!again.errors.empty()) std::abort();
    rope::ParamSet reread;
    rope::cli::apply_sets(reread, again.sets);
    if (!(reread == params)) std::abort();
    return 0;
}
