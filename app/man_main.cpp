// rope-explorer-man: writes the manual page rope-explorer(1) (cli/man_page.hpp) to standard output,
// or with --markdown the reference docs/reference.md (cli/reference.hpp). Run by the build and the
// docs' test, never installed.
#include <iostream>
#include <string>

#include "cli/man_page.hpp"
#include "cli/reference.hpp"

int main(int argc, char** argv) {
    if (argc == 2 && std::string(argv[1]) == "--markdown") {
        std::cout << rope::cli::reference_markdown();
        return 0;
    }
    if (argc != 2 || argv[1][0] == '-') {
        std::cerr << "usage: rope-explorer-man YYYY-MM-DD | --markdown\n";
        return 2;
    }
    std::cout << rope::cli::man_page(argv[1]);
    return 0;
}
