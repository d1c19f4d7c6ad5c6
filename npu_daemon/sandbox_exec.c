/* sandbox_exec: confine this process, then exec an untrusted command (see npu_daemon/sandbox.py).

   sandbox_exec ERRFD CPU_S AS_MB FSIZE_MB NOFILE
                [NPROC UID GID GROUPS NETNS CWD WRITABLE... [--view VISIBLE...]] -- CMD...

   Started by the daemon's worker with vfork (no Python runs between fork and exec), already in its
   own session, its output redirected and every other descriptor closed. In order: the resource
   limits (RLIMIT_NPROC while still root, which ignores it); then, with an identity: an IPC and a
   mount namespace of its own, and a network namespace unless it already is in the one of inode
   NETNS (the worker's own, without network); every mount read-only but the WRITABLE directories,
   or, with --view, a root that holds nothing but the VISIBLE paths (read-only) and the WRITABLE
   directories; chdir CWD through its writable bind; the groups (comma-separated, may be empty),
   gid and uid.
   Then no_new_privs and execvp. A failed step writes "ERRNO STEP" to ERRFD (close-on-exec: it stays
   empty when the exec succeeds) and exits 127, so the daemon tells its own fault from the
   command's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
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

#define NEW_ROOT "/tmp" /* where the view is assembled: every path in it was cloned before */

/* `path` (absolute) under NEW_ROOT, its missing parent directories made (mode 0755). */
static const char* under_root(const char* path, char* out, size_t size) {
  if (snprintf(out, size, NEW_ROOT "%s", path) >= (int)size) {
    errno = ENAMETOOLONG;
    fail(path);
  }
  for (char* slash = strchr(out + sizeof NEW_ROOT, '/'); slash; slash = strchr(slash + 1, '/')) {
    *slash = 0;
    if (mkdir(out, 0755) && errno != EEXIST) fail(out);
    *slash = '/';
  }
  return out;
}

struct entry {
  const char* path;
  int writable;
  int fd;              /* its clone, or -1 for a symbolic link */
  char link[PATH_MAX]; /* the link's text */
};

static int shorter(const void* a, const void* b) {
  return (int)strlen(((const struct entry*)a)->path) - (int)strlen(((const struct entry*)b)->path);
}

/* A root of its own: a tmpfs holding only the entries, each at its own location. Each is first
   cloned from the current tree (open_tree), so the tmpfs may then cover any directory; attached
   shortest first, a path inside another one lands on its directory there. A symbolic link
   (/bin -> usr/bin) is made again as one. Then pivot_root into the tmpfs, the old root detached,
   and the tmpfs itself made read-only. */
static void view(struct entry* e, int n) {
  qsort(e, n, sizeof *e, shorter);
  for (int i = 0; i < n; i++) {
    ssize_t len = readlink(e[i].path, e[i].link, PATH_MAX - 1);
    e[i].link[len > 0 ? len : 0] = 0;
    e[i].fd = -1;
    if (len > 0) continue;
    e[i].fd = (int)syscall(SYS_open_tree, AT_FDCWD, e[i].path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
    struct mount_attr attr = {.attr_set = e[i].writable ? 0 : MOUNT_ATTR_RDONLY,
                              .attr_clr = e[i].writable ? MOUNT_ATTR_RDONLY : 0};
    if (e[i].fd < 0 || syscall(SYS_mount_setattr, e[i].fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof attr))
      fail(e[i].path);
  }
  mode_t mask = umask(0); /* the view's directories are traversable whatever the daemon's umask */
  if (mount("tmpfs", NEW_ROOT, "tmpfs", MS_NOSUID | MS_NODEV, "size=64k,nr_inodes=256,mode=0755")) fail("mount tmpfs");
  for (int i = 0; i < n; i++) {
    char target[PATH_MAX];
    struct stat st;
    under_root(e[i].path, target, sizeof target);
    if (e[i].fd < 0) {
      if (symlink(e[i].link, target) && errno != EEXIST) fail(target);
      continue;
    }
    if (fstat(e[i].fd, &st)) fail(e[i].path);
    if ((S_ISDIR(st.st_mode) ? mkdir(target, 0755) : mknod(target, S_IFREG | 0644, 0)) && errno != EEXIST) fail(target);
    if (syscall(SYS_move_mount, e[i].fd, "", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH)) fail(target);
    close(e[i].fd);
  }
  umask(mask);
  if (chdir(NEW_ROOT) || syscall(SYS_pivot_root, ".", ".")) fail("pivot_root");
  if (umount2(".", MNT_DETACH)) fail("umount the old root"); /* it was stacked on the new one */
  if (chdir("/")) fail("chdir /");
  if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL))
    fail("remount the view read-only");
}

/* The network, mount and IPC namespaces; then every mount read-only but `writable`, or, given
   `visible` paths, a view of those and `writable` alone. */
static void confine(unsigned long long netns, const char* cwd, char** writable, int n_writable, char** visible,
                    int n_visible) {
  struct stat ns;
  int own_net = netns && stat("/proc/self/ns/net", &ns) == 0 && ns.st_ino == netns;
  if (unshare(CLONE_NEWNS | CLONE_NEWIPC | (own_net ? 0 : CLONE_NEWNET))) fail("unshare");
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) fail("mount --make-rprivate /");
  if (n_visible) {
    struct entry e[n_writable + n_visible];
    for (int i = 0; i < n_writable + n_visible; i++)
      e[i] = (struct entry){.path = i < n_writable ? writable[i] : visible[i - n_writable], .writable = i < n_writable};
    view(e, n_writable + n_visible);
  } else {
    for (int i = 0; i < n_writable; i++) /* each its own mount, to stay writable under a ro / */
      if (mount(writable[i], writable[i], NULL, MS_BIND | MS_REC, NULL)) fail(writable[i]);
    mount_attr("/", MOUNT_ATTR_RDONLY, 0);
    for (int i = 0; i < n_writable; i++) mount_attr(writable[i], 0, MOUNT_ATTR_RDONLY);
  }
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

/* Everything above for `ARGS -- CMD...` (the usage at the top); returns CMD's index in argv. The
   compilers' fork server (zygote.c) confines its children with it and then calls the compiler's
   main where sandbox_exec execs. */
int sandbox_confine(int argc, char** argv) {
  int sep = 1;
  while (sep < argc && strcmp(argv[sep], "--")) sep++;
  if (argc < 2 || sep + 1 >= argc) {
    fprintf(stderr,
            "usage: sandbox_exec ERRFD CPU_S AS_MB FSIZE_MB NOFILE "
            "[NPROC UID GID GROUPS NETNS CWD WRITABLE... [--view VISIBLE...]] -- CMD...\n");
    exit(2);
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
    int marker = 12;
    while (marker < sep && strcmp(argv[marker], "--view")) marker++;
    int n_visible = marker < sep ? sep - marker - 1 : 0;
    confine(number(argv[10], "netns"), argv[11], argv + 12, marker - 12, argv + marker + 1, n_visible);
    drop(argv[9], (gid_t)number(argv[8], "gid"), (uid_t)number(argv[7], "uid"));
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) fail("no_new_privs");
  return sep + 1;
}

#ifndef SANDBOX_CONFINE_ONLY
int main(int argc, char** argv) {
  int cmd = sandbox_confine(argc, argv);
  execvp(argv[cmd], argv + cmd);
  fail(argv[cmd]);
}
#endif
