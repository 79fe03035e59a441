# Every target of ours goes through referee_target() so that warnings and
# sanitizers are set in one place.
#
# Warnings are errors only where we choose the compiler and flags: the
# project's presets and CI turn REFEREE_WERROR on. A distribution or a user
# building with another compiler, optimisation level or library version gets
# the same warnings but still gets a build.
option(REFEREE_WERROR "Treat compiler warnings as errors (on in the project's presets)" OFF)

add_library(referee_options INTERFACE)
target_compile_options(referee_options INTERFACE -Wall -Wextra -Wpedantic)
if(REFEREE_WERROR)
  target_compile_options(referee_options INTERFACE -Werror)
endif()
if(REFEREE_SANITIZE)
  target_compile_options(referee_options INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(referee_options INTERFACE -fsanitize=address,undefined)
endif()
# The fuzz build is also CI's sanitizer build: the tests are built in it too
# (the coverage hooks that fuzzer-no-link adds are answered by the sanitizer
# runtime when a program has no libFuzzer), so one clang build serves the
# tests under ASan and UBSan, the fuzz targets and the command line.
if(REFEREE_FUZZ)
  target_compile_options(referee_options INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(referee_options INTERFACE -fsanitize=address,undefined)
endif()

# BUILD_INTERFACE: the options are ours, not our users'. An installed static
# library would otherwise carry them (and an unexported target) to consumers.
function(referee_target target)
  target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:referee_options>)
endfunction()
