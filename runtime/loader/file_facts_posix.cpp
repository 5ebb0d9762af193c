// What a file is before the loader opens it, on POSIX systems (os.hpp: inspect_file and
// read_regular_file). Thread safety: no state; safe from any thread.
//
// Note [Checking a path before opening it]
// realpath() followed by stat() of the result would say what the file is, but not who could have
// changed which file the path names: a symbolic link in a folder anyone may write, or a plugin
// folder inside such a folder (its contents can be renamed away and replaced by whoever can write
// the folder above). So the path is resolved here one component at a time, as the kernel resolves
// it, with lstat and readlink, and every folder the resolution passes through is checked: the
// folders holding symbolic links and the folders of their targets alike, up to /. A folder fails
// when others may write it and it has no sticky bit (in a sticky folder, like /tmp, others may
// add entries but not rename or remove ours), a file when others may write it, and either, or a
// symbolic link, when it is owned by a user who is neither root nor this process's effective user
// (the rule sshd applies to authorized_keys and the folders above it). Only mode bits and owners
// are read, never access(2): root passes every access check, but the bits still say who else can
// write.
//
// Nothing is opened on the way, so a FIFO or a device is seen for what it is before anything
// could block on it. What is opened afterwards is the real path the walk ended at: every folder
// on it is then known to be writable only by root and this user, so no one else can swap the file
// between the check and the open. The manifest is read through a descriptor opened O_NONBLOCK |
// O_NOFOLLOW whose fstat must again be a regular file, the same one (device and inode) the walk
// saw.
#if !defined(_WIN32)

#include "loader/os.hpp"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include <fmt/format.h>

namespace kf::os {
namespace {

// ELOOP's limit of the kernel (MAXSYMLINKS is 40 on Linux).
constexpr int kMaxLinks = 40;

std::vector<std::string> components(const std::string& path) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < path.size()) {
    const size_t j = path.find('/', i);
    const size_t end = j == std::string::npos ? path.size() : j;
    if (end > i) out.push_back(path.substr(i, end - i));
    i = end + 1;
  }
  return out;
}

std::string child(const std::string& folder, const std::string& name) {
  return folder == "/" ? "/" + name : folder + "/" + name;
}

std::string parent(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

const char* kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string owner_problem(const char* what, const std::string& path, const struct stat& st) {
  if (st.st_uid == 0 || st.st_uid == geteuid()) return "";
  return fmt::format("{} {} is owned by user {}, neither root nor this process's user {}", what,
                     path, st.st_uid, geteuid());
}

std::string folder_problem(const std::string& path, const struct stat& st) {
  if ((st.st_mode & S_IWOTH) != 0 && (st.st_mode & S_ISVTX) == 0) {
    return fmt::format("folder {} is world-writable without the sticky bit (mode {:04o}); remove "
                       "that with chmod o-w {}", path, st.st_mode & 07777, path);
  }
  return owner_problem("folder", path, st);
}

std::string file_problem(const std::string& path, const struct stat& st) {
  if ((st.st_mode & S_IWOTH) != 0) {
    return fmt::format("{} is world-writable (mode {:04o}); remove that with chmod o-w {}", path,
                       st.st_mode & 07777, path);
  }
  return owner_problem("file", path, st);
}

void note(FileFacts& f, std::string problem) {
  if (f.insecure.empty()) f.insecure = std::move(problem);
}

std::string link_target(const std::string& link, const struct stat& st) {
  std::string buf(static_cast<size_t>(st.st_size > 0 ? st.st_size : 255) + 1, '\0');
  const ssize_t n = readlink(link.c_str(), buf.data(), buf.size());
  if (n <= 0 || static_cast<size_t>(n) >= buf.size()) return "";
  buf.resize(static_cast<size_t>(n));
  return buf;
}

// The last component, resolved: its identity and kind, and the file's own permissions.
void classify(FileFacts& f, const std::string& real) {
  struct stat st {};
  if (lstat(real.c_str(), &st) != 0) {
    f.missing = fmt::format("{} does not exist ({})", real, std::strerror(errno));
    return;
  }
  f.real = real;
  f.identity = FileIdentity{static_cast<unsigned long long>(st.st_dev),
                            static_cast<unsigned long long>(st.st_ino)};
  if (!S_ISREG(st.st_mode)) {
    f.not_regular = kind_of(st.st_mode);
    return;
  }
  note(f, file_problem(real, st));
}

// Resolves `path` (absolute) component by component into `f`: every folder on the way and
// every symbolic link is noted; returns the real path of the last component, "" when the walk
// failed (f.missing says why).
std::string resolve(const std::string& path, FileFacts& f) {
  std::vector<std::string> todo = components(path);  // consumed from the back
  std::reverse(todo.begin(), todo.end());
  std::string cur = "/";
  struct stat st {};
  if (lstat("/", &st) == 0) note(f, folder_problem("/", st));
  int links = 0;
  while (!todo.empty()) {
    const std::string c = todo.back();
    todo.pop_back();
    if (c == ".") continue;
    if (c == "..") {  // the parent was passed through (and checked) on the way down
      cur = parent(cur);
      continue;
    }
    const std::string next = child(cur, c);
    if (lstat(next.c_str(), &st) != 0) {
      f.missing = fmt::format("{} does not exist ({})", next, std::strerror(errno));
      return "";
    }
    if (S_ISLNK(st.st_mode)) {
      const std::string target = link_target(next, st);
      if (++links > kMaxLinks || target.empty()) {
        f.missing = fmt::format("{}: too many or unreadable symbolic links", next);
        return "";
      }
      note(f, owner_problem("symbolic link", next, st));
      std::vector<std::string> more = components(target);
      todo.insert(todo.end(), more.rbegin(), more.rend());
      if (target[0] == '/') cur = "/";
      continue;
    }
    if (todo.empty()) return next;
    if (!S_ISDIR(st.st_mode)) {
      f.missing = fmt::format("{} is not a folder", next);
      return "";
    }
    note(f, folder_problem(next, st));
    cur = next;
  }
  return cur;
}

// The last component of inspect_folder, resolved: it must be a folder no one else may change.
void classify_folder(FileFacts& f, const std::string& real) {
  struct stat st {};
  if (lstat(real.c_str(), &st) != 0) {
    f.missing = fmt::format("{} does not exist ({})", real, std::strerror(errno));
    return;
  }
  f.real = real;
  f.identity = FileIdentity{static_cast<unsigned long long>(st.st_dev),
                            static_cast<unsigned long long>(st.st_ino)};
  if (!S_ISDIR(st.st_mode)) {
    f.not_regular = S_ISREG(st.st_mode) ? "a file" : kind_of(st.st_mode);
    return;
  }
  note(f, folder_problem(real, st));
}

// Note [Reading a file grows the buffer]
// The text is read in pieces appended to a buffer sized by the file, never by the limit: the
// limit is what a file may not exceed (64 MiB for ld.so.cache), and a buffer resized to it up
// front was zero-filled, touching 64 MiB of pages, every time ld.so.cache was read. That made
// each system search (every preload or driver not in a search root) cost ~50 ms and ~60 MiB of
// peak memory where dlopen itself takes 2 ms (docs/loader.md, "What a preload used to cost").
std::string read_up_to(int fd, size_t limit, size_t size_hint) {
  std::string text;
  text.reserve(std::min(limit, size_hint + 1));
  char piece[16 * 1024];
  while (text.size() < limit) {
    const ssize_t got = read(fd, piece, std::min(sizeof piece, limit - text.size()));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    text.append(piece, static_cast<size_t>(got));
  }
  return text;
}

}  // namespace

FileFacts inspect_file(const std::string& path) {
  FileFacts f;
  if (!is_absolute(path)) {
    f.missing = "'" + path + "' is not an absolute path";
    return f;
  }
  const std::string real = resolve(path, f);
  if (!real.empty()) classify(f, real);
  return f;
}

FileFacts inspect_folder(const std::string& path) {
  FileFacts f;
  if (!is_absolute(path)) {
    f.missing = "'" + path + "' is not an absolute path";
    return f;
  }
  const std::string real = resolve(path, f);
  if (!real.empty()) classify_folder(f, real);
  return f;
}

FileText read_regular_file(const std::string& path, size_t limit, const FileIdentity* expected) {
  FileText r;
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    r.missing = e == ENOENT || e == ENOTDIR;
    r.error = e == ELOOP ? path + " is a symbolic link; give its real path"
                         : fmt::format("{} cannot be opened: {}", path, std::strerror(e));
    return r;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    r.error = fmt::format("{} is {}, not a file kernforge reads", path,
                          S_ISREG(st.st_mode) ? "unreadable" : kind_of(st.st_mode));
  } else if (expected != nullptr &&
             (static_cast<unsigned long long>(st.st_dev) != expected->device ||
              static_cast<unsigned long long>(st.st_ino) != expected->inode)) {
    r.error = path + " was replaced while it was being checked; nothing was read";
  } else {
    r.text = read_up_to(fd, limit, static_cast<size_t>(st.st_size));
  }
  close(fd);
  return r;
}

}  // namespace kf::os

#endif  // !_WIN32
