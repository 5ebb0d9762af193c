// The sanitizer canaries: each mode commits one error that its sanitizer must report. A canary
// that runs quietly means the stage it runs in is not checking what it claims to (a preset whose
// flags were dropped, a sanitizer runtime that was not linked, LeakSanitizer switched off).
//
// Usage: kernforge_sanitizer_canary <heap-overflow|use-after-free|signed-overflow|
//        misaligned-load|leak|data-race>
// Values come from argv so that the compiler cannot fold the errors away.
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace {

int heap_overflow(int n) {
  int* a = new int[n];
  std::memset(a, 0, sizeof(int) * n);
  volatile int v = a[n];  // one past the end
  delete[] a;
  return v;
}

int use_after_free(int n) {
  int* a = new int[n]();
  int* volatile kept = a;  // read back after the delete; the compiler cannot see it is the same
  delete[] a;
  return kept[0];
}

int signed_overflow(int n) {
  volatile int big = INT_MAX - 1 + n;  // INT_MAX when n == 1
  return big + n;                      // INT_MAX + 1
}

int misaligned_load(int n) {
  alignas(8) char bytes[16] = {};
  const int* p = reinterpret_cast<const int*>(bytes + n);  // n == 1: misaligned
  return *p;
}

int leak(int n) {
  int* volatile a = new int[static_cast<size_t>(n) * 1000];
  a[0] = n;
  int first = a[0];
  a = nullptr;  // the only pointer to the block is gone
  return first;
}

int data_race(int n) {
  static int shared = 0;  // written by two threads with nothing ordering the writes
  std::thread other([n] {
    for (int i = 0; i < 1000; ++i) shared += n;
  });
  for (int i = 0; i < 1000; ++i) shared += n;
  other.join();
  return shared;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <mode>\n", argv[0]);
    return 2;
  }
  const int one = argc - 1;  // 1, unknown to the compiler
  const char* mode = argv[1];
  int r = 0;
  if (std::strcmp(mode, "heap-overflow") == 0) r = heap_overflow(one * 4);
  else if (std::strcmp(mode, "use-after-free") == 0) r = use_after_free(one * 4);
  else if (std::strcmp(mode, "signed-overflow") == 0) r = signed_overflow(one);
  else if (std::strcmp(mode, "misaligned-load") == 0) r = misaligned_load(one);
  else if (std::strcmp(mode, "leak") == 0) r = leak(one);
  else if (std::strcmp(mode, "data-race") == 0) r = data_race(one);
  else {
    std::fprintf(stderr, "unknown mode '%s'\n", mode);
    return 2;
  }
  std::printf("canary %s ran to the end (result %d): no sanitizer stopped it\n", mode, r);
  return 0;
}
