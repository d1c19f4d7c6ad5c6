/* zygote: a compiler started once, whose sandboxed commands are forks of it (npu_daemon/zygote.py).

   Preloaded (LD_PRELOAD) into clang or wasm-ld started with ASCENDC_ZYGOTE_FD set. clang and lld
   spend about 20 and 15 ms of CPU before their main, in the dynamic loader and the page faults
   of relocating libLLVM: a quarter of a guest kernel's build. This library interposes
   __libc_start_main, which runs once every library is loaded and constructed, and serves
   requests on the descriptor where the program's main would run: each one a command that a fork
   of this ready process runs, confined by sandbox_exec's own code (sandbox_confine) before the
   program's main is called.

   A request is one SOCK_SEQPACKET message: a uint32 timeout in milliseconds, then NUL-terminated
   strings: the command's environment, an empty string, its working directory, and sandbox_exec's
   command line (`sandbox_exec ERRFD ... -- CMD...`, ERRFD being 3); with it three descriptors, which the child
   gets as its stdout, stderr and ERRFD. The reply: the child's wait status (-1 when the server
   failed: a malformed request, a fork refused, no pidfd), whether the timeout killed it, and its
   user and system CPU in microseconds (four int64). The child's process group is killed when it
   ends, as sandbox.run kills a command's. The server is the daemon's alone: it runs as
   root, reads only the socket its parent holds the other end of, and ends when that closes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int sandbox_confine(int argc, char** argv); /* sandbox_exec.c */

typedef int (*main_fn)(int, char**, char**);
static main_fn program_main;

#define MAX_REQUEST (1 << 20)
#define MAX_STRINGS 8192

/* The confined child: its descriptors, its directory and environment, the sandbox, then the
   program. */
static void run_child(int sock, const int fd[3], char** env, const char* cwd, int argc, char** argv) {
  close(sock);
  if (setsid() < 0 || dup2(fd[0], 1) < 0 || dup2(fd[1], 2) < 0 || dup2(fd[2], 3) < 0) _exit(127);
  int null = open("/dev/null", O_RDONLY);
  if (null < 0 || dup2(null, 0) < 0) _exit(127);
  syscall(SYS_close_range, 4, ~0U, 0);
  if (chdir(cwd)) { /* sandbox_exec's report of a step of its own that failed */
    dprintf(3, "%d chdir", errno);
    _exit(127);
  }
  clearenv();
  for (char** e = env; *e; e++) putenv(*e);
  int cmd = sandbox_confine(argc, argv); /* reports a failed step on ERRFD and exits 127 */
  close(3);                              /* what exec's close-on-exec does for sandbox_exec */
  extern char** environ;
  exit(program_main(argc - cmd, argv + cmd, environ));
}

/* Wait for `pid` up to `timeout_ms`, then kill its group: the reply's four numbers. Without a
   pidfd to wait on (a kernel before 5.3) the command is killed and the reply says the server
   failed: the daemon then runs its commands through sandbox_exec. */
static void finish(pid_t pid, uint32_t timeout_ms, int64_t reply[4]) {
  int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  struct pollfd p = {.fd = pidfd, .events = POLLIN};
  int ready = -1;
  if (pidfd >= 0) {
    do ready = poll(&p, 1, (int)timeout_ms);
    while (ready < 0 && errno == EINTR);
    close(pidfd);
  }
  if (ready <= 0) kill(pid, SIGKILL); /* also before its setsid */
  kill(-pid, SIGKILL);                /* its group: whatever it started dies with it */
  int status = 0;
  struct rusage ru = {0};
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  reply[0] = ready < 0 ? -1 : status;
  reply[1] = ready == 0;
  reply[2] = (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec;
  reply[3] = (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
}

static int serve(int argc, char** argv, char** envp) {
  (void)argc, (void)argv, (void)envp;
  int sock = atoi(getenv("ASCENDC_ZYGOTE_FD"));
  unsetenv("ASCENDC_ZYGOTE_FD");
  unsetenv("LD_PRELOAD");
  char* buf = malloc(MAX_REQUEST + 1);
  char* strings[MAX_STRINGS + 1];
  for (;;) {
    union {
      struct cmsghdr h;
      char space[CMSG_SPACE(3 * sizeof(int))];
    } control;
    struct iovec iov = {buf, MAX_REQUEST};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = &control, .msg_controllen = sizeof control};
    ssize_t n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0; /* the daemon closed its end */
    buf[n] = 0;
    struct cmsghdr* c = CMSG_FIRSTHDR(&msg);
    int fd[4] = {-1, -1, -1, -1}, nfd = 0; /* 4: what the aligned buffer may hold */
    if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
      nfd = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
      nfd = nfd < 4 ? nfd : 4;
      memcpy(fd, CMSG_DATA(c), (size_t)nfd * sizeof(int));
    }
    /* Split: the environment up to the first empty string, then the directory and the arguments;
       a request of more strings than fit is malformed, never cut short. */
    int count = 0, env_end = -1;
    char* s = buf + 4;
    for (; s < buf + n && count < MAX_STRINGS; s += strlen(s) + 1) {
      if (!*s && env_end < 0) {
        env_end = count;
        strings[count++] = NULL;
      } else {
        strings[count++] = s;
      }
    }
    strings[count] = NULL;
    int64_t reply[4] = {-1, 0, 0, 0};
    uint32_t timeout_ms = 0;
    if (n >= 4) memcpy(&timeout_ms, buf, 4);
    if (n >= 4 && s >= buf + n && nfd == 3 && env_end >= 0 && count - env_end > 2 &&
        (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) == 0) {
      pid_t pid = fork();
      if (pid == 0) run_child(sock, fd, strings, strings[env_end + 1], count - env_end - 2, strings + env_end + 2);
      for (int i = 0; i < 3; i++) close(fd[i]); /* ERRFD's last writer is the child now */
      nfd = 0;
      if (pid > 0) finish(pid, timeout_ms, reply);
    }
    for (int i = 0; i < nfd; i++) close(fd[i]);
    if (send(sock, reply, sizeof reply, MSG_NOSIGNAL) != sizeof reply) return 0;
  }
}

int __libc_start_main(main_fn main, int argc, char** argv, void (*init)(void), void (*fini)(void),
                      void (*rtld_fini)(void), void* stack_end) {
  int (*start)(main_fn, int, char**, void (*)(void), void (*)(void), void (*)(void), void*) =
      dlsym(RTLD_NEXT, "__libc_start_main");
  program_main = main;
  return start(getenv("ASCENDC_ZYGOTE_FD") ? serve : main, argc, argv, init, fini, rtld_fini, stack_end);
}
