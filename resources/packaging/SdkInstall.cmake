# The Poplar SDK's names for what TileScope installs: library names (-lpvti, -lpva) and CMake
# packages (find_package(poplar), ...), so that SDK programs' Makefiles and CMake projects build
# unchanged against the prefix. Included by the top-level CMakeLists.txt.

# tilescope_sdk_library_name(NAME TARGET): install lib<NAME>.so as a GNU ld script,
# INPUT(-l<TARGET's file name>), so that `g++ main.cpp -l<NAME>` links TARGET's library and through
# its DT_NEEDED entries everything it needs. A script, not a second shared library: the face's
# symbols live in TARGET (the app and the simulator use them there too), and an empty library that
# only lists TARGET as DT_NEEDED would not let the user's link see them (ld refuses symbols from a
# DSO that is not on the command line).
function(tilescope_sdk_library_name name target)
  if(NOT BUILD_SHARED_LIBS)
    message(STATUS "lib${name}: not installed (static build; link ${target} instead)")
    return()
  endif()
  get_target_property(file_name ${target} OUTPUT_NAME)
  set(script ${CMAKE_CURRENT_BINARY_DIR}/lib${name}.so)
  file(WRITE ${script}
    "/* GNU ld script: -l${name} is TileScope's lib${file_name}, which holds the ${name} API. */\n"
    "INPUT(-l${file_name})\n")
  install(FILES ${script} DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

# tilescope_sdk_cmake_package(NAME TARGET [DEPENDS PACKAGE...]): install the CMake package NAME
# (<libdir>/cmake/NAME/NAME-config.cmake) that defines the imported target NAME, as the SDK names
# it, over TileScope::TARGET; finding it also finds the packages it DEPENDS on, as the SDK's do.
# An empty TARGET ("") installs a package that only finds its DEPENDS, as the SDK's `poplibs`
# package (find_package(poplibs) gives the targets poputil, popops, poplin, ... and no `poplibs`).
function(tilescope_sdk_cmake_package name target)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "DEPENDS")
  set(TILESCOPE_SDK_PACKAGE ${name})
  if(target STREQUAL "")
    set(TILESCOPE_SDK_TARGET "")
  else()
    set(TILESCOPE_SDK_TARGET TileScope::${target})
  endif()
  set(TILESCOPE_SDK_DEPENDS "${arg_DEPENDS}")
  set(dir ${CMAKE_INSTALL_LIBDIR}/cmake/${name})
  configure_file(${PROJECT_SOURCE_DIR}/resources/packaging/sdk-package-config.cmake.in
    ${PROJECT_BINARY_DIR}/sdk-packages/${name}-config.cmake @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/sdk-packages/${name}-config.cmake DESTINATION ${dir})
endfunction()
