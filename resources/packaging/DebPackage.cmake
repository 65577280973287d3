# The desktop package: `cpack -G DEB` in the build directory (after building everything) makes one
# tilescope_<version>_<arch>.deb holding the app, the CLI, the libraries, headers, popc, enable.sh
# and the Python modules, installed under /opt/tilescope like the Poplar SDK (so enable.sh works
# as for a tarball install). Its postinst links the desktop entry, icon and MIME types
# (profile.pop, *.pvti) into /usr/share and the two executables into /usr/bin. Dependencies are
# Debian packages only, worked out by dpkg-shlibdeps.
set(TILESCOPE_DEB_PREFIX /opt/tilescope)

# Desktop integration files, under the prefix (postinst makes them visible).
install(FILES ${CMAKE_CURRENT_LIST_DIR}/desktop/tilescope.desktop
  DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT app)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/desktop/tilescope-mime.xml
  DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages RENAME tilescope.xml COMPONENT app)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/desktop/tilescope.svg
  DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT app)

configure_file(${CMAKE_CURRENT_LIST_DIR}/deb-postinst.in ${CMAKE_BINARY_DIR}/deb/postinst @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/deb-prerm.in ${CMAKE_BINARY_DIR}/deb/prerm @ONLY)
file(CHMOD ${CMAKE_BINARY_DIR}/deb/postinst ${CMAKE_BINARY_DIR}/deb/prerm
  PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tilescope)
set(CPACK_PACKAGE_VENDOR TileScope)
set(CPACK_PACKAGE_CONTACT "TileScope developers <tilescope@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Profiler for tile-based BSP accelerators, with a Poplar-compatible IPU simulator")
set(CPACK_PACKAGING_INSTALL_PREFIX ${TILESCOPE_DEB_PREFIX})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Debug information stays in the build tree: the package is for users.
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The package's own libraries, for dpkg-shlibdeps to know they need no dependency.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS
  ${CMAKE_BINARY_DIR}/reportfmt ${CMAKE_BINARY_DIR}/instrumentation ${CMAKE_BINARY_DIR}/simcore)
# The Python modules are built for Debian's python3; numpy only serves the array additions.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-numpy, g++, make")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_BINARY_DIR}/deb/postinst ${CMAKE_BINARY_DIR}/deb/prerm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
include(CPack)
