# REFEREE_PYTHON: the Python module `referee` (python/), built with pybind11.
#
# It is built against Debian's own interpreter, /usr/bin/python3 (with
# python3-dev and pybind11-dev), not whatever `python3` comes first on the
# PATH (a pyenv or virtualenv interpreter would need its own headers, and the
# module only loads in the interpreter it was built for). Another one is
# chosen with -DPython3_EXECUTABLE=/path/to/python3.
#
# The option is on when pybind11 and Python's headers are found, and off in
# the sanitizer builds (a module built with ASan cannot be loaded by a Python
# that is not); the project builds without it. With it, every library is
# position-independent (-fPIC), since the module is a shared object that
# links the static libraries; -fno-semantic-interposition keeps the code the
# compiler makes for them as it is without -fPIC.
set(referee_python_default OFF)
if(NOT REFEREE_SANITIZE AND NOT REFEREE_FUZZ)
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "The Python the module is built for (Debian's by default)")
  endif()
  find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
  if(Python3_FOUND)
    find_package(pybind11 2.6 CONFIG QUIET)
  endif()
  if(Python3_FOUND AND pybind11_FOUND)
    set(referee_python_default ON)
  endif()
endif()
option(REFEREE_PYTHON "Build the Python module (import referee) with pybind11" ${referee_python_default})
if(REFEREE_PYTHON)
  if(NOT Python3_FOUND OR NOT pybind11_FOUND)
    find_package(Python3 REQUIRED COMPONENTS Interpreter Development.Module)
    find_package(pybind11 2.6 CONFIG REQUIRED)
  endif()
  # `cmake --install` puts the package here under the prefix: the folder
  # Debian's interpreter searches for a prefix of /usr/local
  # (/usr/local/lib/python3.11/dist-packages).
  set(REFEREE_PYTHON_INSTALL_DIR "lib/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}/dist-packages"
      CACHE STRING "Where cmake --install puts the Python package referee, relative to the prefix")
  message(STATUS "referee: Python module for ${Python3_EXECUTABLE} (${Python3_VERSION}), pybind11 ${pybind11_VERSION}")
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)
  include(CheckCXXCompilerFlag)
  check_cxx_compiler_flag(-fno-semantic-interposition REFEREE_HAS_NO_SEMANTIC_INTERPOSITION)
  if(REFEREE_HAS_NO_SEMANTIC_INTERPOSITION)
    add_compile_options(-fno-semantic-interposition)
  endif()
else()
  message(STATUS "referee: no Python module (REFEREE_PYTHON is off: pybind11-dev or python3-dev missing, or a sanitizer build)")
endif()
