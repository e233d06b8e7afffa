// A SIGSEGV / SIGBUS / SIGABRT handler loaded with LD_PRELOAD where no
// debugger exists (the GPU machine has no gdb): prints the native stack as
// "library +offset symbol" lines, which `addr2line -f -C -i -e library offset`
// turns into functions, then lets the default action run.
//   gcc -shared -fPIC -O1 -o /tmp/segv_backtrace.so scripts/debug/segv_backtrace.c
//   LD_PRELOAD=/tmp/segv_backtrace.so python3 -c "..."
// Python's faulthandler (pytest turns it on) calls the handler it replaced
// after its own dump, so both stacks are printed.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_stack(int sig, siginfo_t* info, void* context) {
  (void)context;
  void* frames[128];
  const int n = backtrace(frames, 128);
  fprintf(stderr, "segv_backtrace: signal %d (%s), fault address %p, %d frames\n", sig, strsignal(sig), info->si_addr, n);
  for (int i = 0; i < n; ++i) {
    Dl_info where;
    if (dladdr(frames[i], &where) && where.dli_fname != NULL) {
      fprintf(stderr, "#%-3d %s +0x%lx %s\n", i, where.dli_fname, (unsigned long)((char*)frames[i] - (char*)where.dli_fbase),
              where.dli_sname != NULL ? where.dli_sname : "?");
    } else {
      fprintf(stderr, "#%-3d %p\n", i, frames[i]);
    }
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

__attribute__((constructor)) static void install(void) {
  // An alternate stack, so a stack overflow is reported too (main thread).
  static char alternate[1 << 16];
  stack_t stack = {.ss_sp = alternate, .ss_size = sizeof alternate, .ss_flags = 0};
  sigaltstack(&stack, NULL);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = print_stack;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigaction(SIGSEGV, &action, NULL);
  sigaction(SIGBUS, &action, NULL);
  sigaction(SIGABRT, &action, NULL);
}
