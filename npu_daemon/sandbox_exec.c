/* sandbox_exec: confine this process, then exec an untrusted command (see npu_daemon/sandbox.py).

   sandbox_exec ERRFD CPU_S AS_MB FSIZE_MB NOFILE [NPROC UID GID GROUPS NETNS CWD WRITABLE...] -- CMD...

   Started by the daemon's worker with vfork (no Python runs between fork and exec), already in its
   own session, its output redirected and every other descriptor closed. In order: the resource
   limits (RLIMIT_NPROC while still root, which ignores it); then, with an identity: an IPC and a
   mount namespace of its own, and a network namespace unless it already is in the one of inode
   NETNS (the worker's own, without network); every mount read-only but the WRITABLE directories;
   chdir CWD through its writable bind; the groups (comma-separated, may be empty), gid and uid.
   Then no_new_privs and execvp. A failed step writes "ERRNO STEP" to ERRFD (close-on-exec: it stays
   empty when the exec succeeds) and exits 127, so the daemon tells its own fault from the
   command's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/mount.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int errfd = -1;

static void fail(const char* step) {
  char msg[512];
  int n = snprintf(msg, sizeof msg, "%d %s", errno, step);
  if (write(errfd, msg, n > 0 ? (size_t)n : 0) < 0) {
    /* nothing left to report to: the exit status says it */
  }
  _exit(127);
}

static unsigned long long number(const char* text, const char* what) {
  char* end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno || *end || end == text) {
    errno = EINVAL;
    fail(what);
  }
  return v;
}

static void limit(int resource, rlim_t soft, rlim_t hard, const char* what) {
  struct rlimit r = {soft, hard};
  if (setrlimit(resource, &r)) fail(what);
}

static void mount_attr(const char* path, unsigned long long set, unsigned long long clr) {
  struct mount_attr attr = {.attr_set = set, .attr_clr = clr};
  if (syscall(SYS_mount_setattr, AT_FDCWD, path, AT_RECURSIVE, &attr, sizeof attr)) fail(path);
}

/* The network, mount and IPC namespaces, and the read-only view of everything but `writable`. */
static void confine(unsigned long long netns, const char* cwd, char** writable, int n) {
  struct stat ns;
  int own_net = netns && stat("/proc/self/ns/net", &ns) == 0 && ns.st_ino == netns;
  if (unshare(CLONE_NEWNS | CLONE_NEWIPC | (own_net ? 0 : CLONE_NEWNET))) fail("unshare");
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) fail("mount --make-rprivate /");
  for (int i = 0; i < n; i++) /* each its own mount, so it can stay writable under a read-only / */
    if (mount(writable[i], writable[i], NULL, MS_BIND | MS_REC, NULL)) fail(writable[i]);
  mount_attr("/", MOUNT_ATTR_RDONLY, 0);
  for (int i = 0; i < n; i++) mount_attr(writable[i], 0, MOUNT_ATTR_RDONLY);
  if (chdir(cwd)) fail("chdir"); /* through the writable bind, not the read-only old mount */
}

static void drop(const char* groups, gid_t gid, uid_t uid) {
  gid_t list[64];
  size_t n = 0;
  char copy[1024];
  snprintf(copy, sizeof copy, "%s", groups);
  for (char *save, *g = strtok_r(copy, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
    if (n == sizeof list / sizeof *list) {
      errno = E2BIG;
      fail("setgroups");
    }
    list[n++] = (gid_t)number(g, "groups");
  }
  if (setgroups(n, list)) fail("setgroups");
  if (setgid(gid)) fail("setgid");
  if (setuid(uid)) fail("setuid");
}

int main(int argc, char** argv) {
  int sep = 1;
  while (sep < argc && strcmp(argv[sep], "--")) sep++;
  if (argc < 2 || sep + 1 >= argc) {
    fprintf(stderr,
            "usage: sandbox_exec ERRFD CPU_S AS_MB FSIZE_MB NOFILE "
            "[NPROC UID GID GROUPS NETNS CWD WRITABLE...] -- CMD...\n");
    return 2;
  }
  errfd = (int)number(argv[1], "errfd");
  if (fcntl(errfd, F_SETFD, FD_CLOEXEC)) fail("errfd");
  if (sep != 6 && sep < 12) {
    errno = EINVAL;
    fail("arguments");
  }
  const rlim_t mb = 1024 * 1024, cpu = number(argv[2], "cpu");
  limit(RLIMIT_CPU, cpu, cpu + 1, "RLIMIT_CPU");
  limit(RLIMIT_AS, number(argv[3], "as") * mb, number(argv[3], "as") * mb, "RLIMIT_AS");
  limit(RLIMIT_FSIZE, number(argv[4], "fsize") * mb, number(argv[4], "fsize") * mb, "RLIMIT_FSIZE");
  limit(RLIMIT_NOFILE, number(argv[5], "nofile"), number(argv[5], "nofile"), "RLIMIT_NOFILE");
  limit(RLIMIT_CORE, 0, 0, "RLIMIT_CORE");
  if (sep > 6) {
    limit(RLIMIT_NPROC, number(argv[6], "nproc"), number(argv[6], "nproc"), "RLIMIT_NPROC");
    confine(number(argv[10], "netns"), argv[11], argv + 12, sep - 12);
    drop(argv[9], (gid_t)number(argv[8], "gid"), (uid_t)number(argv[7], "uid"));
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) fail("no_new_privs");
  execvp(argv[sep + 1], argv + sep + 1);
  fail(argv[sep + 1]);
}
