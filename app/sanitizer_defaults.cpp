// Built only into the sanitized builds (ROPE_SANITIZE, ROPE_FUZZ), and linked into every executable of
// them: the app, the tests and the fuzz targets, so the options hold however a binary is started.
//
// intercept_tls_get_addr=0: the sanitizer runtimes of GCC up to 13 and LLVM up to 16 (Debian 12 ships
// GCC 12 and clang 14) take a dynamic TLS block whose address is 16 bytes past a page boundary for
// glibc 2.19's block header and read a start and size from the two words before it. Since glibc 2.25
// there is no such header, so when a malloc'd block lands there by chance, LeakSanitizer's tracer
// scans a garbage range at exit ("DTLS 11 at 0x...fda-0x...20dc", then "Tracer caught signal 11",
// "LeakSanitizer has encountered a fatal error"). Mesa's GL drivers, loaded with dlopen, use dynamic
// TLS, so the app hit it in about half of its runs under load. Leaks are still found: glibc allocates
// those blocks through the dynamic linker, whose allocations LeakSanitizer treats as reachable roots.
extern "C" __attribute__((used, visibility("default"))) const char* __asan_default_options() {
  return "intercept_tls_get_addr=0";
}
