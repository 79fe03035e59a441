# `cmake --install` and the package config that lets another project write
#   find_package(referee 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE referee::core referee::warmaster)
#
# Each library's CMakeLists.txt calls referee_install_library(); a new library
# needs only that one line (and DEPENDS for a package its link interface adds).
# Headers are installed as one tree: include/referee/<module>/ comes along
# without further edits.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(REFEREE_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/referee"
    CACHE STRING "Where the CMake package config is installed, relative to the prefix")

# referee_install_library(<target> <name> [DEPENDS "<package> [version]"...])
# Installs <target> and exports it as referee::<name> (an alias of the same name
# exists in this build too). Each DEPENDS entry becomes a find_dependency() in
# refereeConfig.cmake, for packages in the target's public link interface.
function(referee_install_library target name)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "DEPENDS")
  add_library(referee::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(TARGETS ${target} EXPORT refereeTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  set_property(GLOBAL APPEND PROPERTY REFEREE_PACKAGE_DEPENDENCIES ${arg_DEPENDS})
endfunction()

# referee_system_library(<target> <name>): a rule system's library. Installed
# as referee::<name>, and linked into the registry (src/games), which gathers
# every system's library from the global property REFEREE_SYSTEM_LIBRARIES.
function(referee_system_library target name)
  referee_install_library(${target} ${name} ${ARGN})
  set_property(GLOBAL APPEND PROPERTY REFEREE_SYSTEM_LIBRARIES ${target})
endfunction()

# Called once from the top-level CMakeLists.txt after every library is defined.
function(referee_install_package)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/referee
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT refereeTargets NAMESPACE referee::
          FILE refereeTargets.cmake DESTINATION ${REFEREE_INSTALL_CMAKEDIR})

  get_property(deps GLOBAL PROPERTY REFEREE_PACKAGE_DEPENDENCIES)
  list(REMOVE_DUPLICATES deps)
  set(REFEREE_FIND_DEPENDENCIES "")
  foreach(dep IN LISTS deps)
    string(APPEND REFEREE_FIND_DEPENDENCIES "find_dependency(${dep})\n")
  endforeach()

  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/refereeConfig.cmake.in
    ${PROJECT_BINARY_DIR}/refereeConfig.cmake
    INSTALL_DESTINATION ${REFEREE_INSTALL_CMAKEDIR})
  # 0.x: a minor version may change the interface.
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/refereeConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/refereeConfig.cmake
                ${PROJECT_BINARY_DIR}/refereeConfigVersion.cmake
          DESTINATION ${REFEREE_INSTALL_CMAKEDIR})
endfunction()
