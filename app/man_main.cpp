// rope-explorer-man: writes the manual page rope-explorer(1) (cli/man_page.hpp) to standard output.
// Run by the build, never installed.
#include <iostream>

#include "cli/man_page.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: rope-explorer-man YYYY-MM-DD\n";
        return 2;
    }
    std::cout << rope::cli::man_page(argv[1]);
    return 0;
}
