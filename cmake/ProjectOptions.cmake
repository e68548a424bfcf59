# Build-wide settings and the one INTERFACE target every Tapestry target links:
# C++20, warnings, and Qt's strict string/connect defines.
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
endif()

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

add_library(tapestry_options INTERFACE)
target_compile_features(tapestry_options INTERFACE cxx_std_20)
target_compile_options(tapestry_options INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
  -Wcast-align -Woverloaded-virtual -Wnull-dereference)
target_compile_definitions(tapestry_options INTERFACE
  QT_NO_CAST_FROM_ASCII
  QT_NO_CAST_TO_ASCII
  QT_NO_CAST_FROM_BYTEARRAY
  QT_NO_URL_CAST_FROM_STRING
  QT_NO_CONTEXTLESS_CONNECT
  QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
  QT_NO_FOREACH
  QT_USE_QSTRINGBUILDER)

option(TAPESTRY_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(TAPESTRY_SANITIZE)
  target_compile_options(tapestry_options INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(tapestry_options INTERFACE -fsanitize=address,undefined)
endif()

# Coverage for libFuzzer in every object; the fuzz executables link the fuzzer itself.
option(TAPESTRY_BUILD_FUZZ "Build the libFuzzer targets (clang; scripts/fuzz.sh)" OFF)
if(TAPESTRY_BUILD_FUZZ)
  target_compile_options(tapestry_options INTERFACE -fsanitize=fuzzer-no-link)
endif()
