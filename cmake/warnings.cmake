# Every target of ours goes through referee_target() so that warnings and
# sanitizers are set in one place.
add_library(referee_options INTERFACE)
target_compile_options(referee_options INTERFACE -Wall -Wextra -Wpedantic -Werror)
if(REFEREE_SANITIZE)
  target_compile_options(referee_options INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(referee_options INTERFACE -fsanitize=address,undefined)
endif()
if(REFEREE_FUZZ)
  target_compile_options(referee_options INTERFACE -fsanitize=fuzzer-no-link,address,undefined)
  target_link_options(referee_options INTERFACE -fsanitize=address,undefined)
endif()

function(referee_target target)
  target_link_libraries(${target} PRIVATE referee_options)
endfunction()
