#include "python_handoff.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace dpclust::cli {

int hand_off_to_python(int argc, char** argv, const PythonMethodUnavailable& why) {
  const std::string cmd = argc > 0 ? argv[0] : "";
  if (cmd != "run" && cmd != "validate" && cmd != "audit") {
    std::cerr << "error: " << why.what() << "\n";
    return 2;
  }
#if defined(DPCLUST_PYTHON_EXECUTABLE) && defined(DPCLUST_PYTHON_PATH)
  const char* env = std::getenv("DPCLUST_PYTHON");
  const std::string python = env && *env ? env : DPCLUST_PYTHON_EXECUTABLE;
  // An installed binary (pip install: dpclust/bin/dpclust inside the package) has no build folder to add: its
  // interpreter imports the installed package (DPCLUST_PYTHON_PATH is empty; an empty PYTHONPATH entry
  // would mean the working directory).
  std::string path = DPCLUST_PYTHON_PATH;
  const char* old = std::getenv("PYTHONPATH");
  if (old && *old) path += (path.empty() ? "" : ":") + std::string(old);
  if (!path.empty()) ::setenv("PYTHONPATH", path.c_str(), 1);
  std::vector<std::string> words{python, "-m", "dpclust"};
  for (int i = 0; i < argc; ++i) words.emplace_back(argv[i]);
  std::vector<char*> args;
  for (auto& w : words) args.push_back(w.data());
  args.push_back(nullptr);
  std::cerr << "dpclust: " << why.where() << " names a Python method (method: python); running `" << python
            << " -m dpclust " << cmd << " ...` (docs/python.md)\n";
  std::cout.flush();
  std::cerr.flush();
  ::execv(python.c_str(), args.data());
  std::cerr << "error: cannot start " << python << " (" << std::strerror(errno)
            << ")\n  fix: set DPCLUST_PYTHON to a python3 "
            << "with numpy, or run `PYTHONPATH=" << DPCLUST_PYTHON_PATH << " python3 -m dpclust " << cmd
            << " ...` yourself\n";
  return 2;
#else
  std::cerr << "error: " << why.what()
            << "\n  (this build has no Python module: configure with pybind11 and python3-numpy installed, "
            << "DPCLUST_BUILD_PYTHON=ON, and without DPCLUST_SANITIZE)\n";
  return 2;
#endif
}

}  // namespace dpclust::cli
