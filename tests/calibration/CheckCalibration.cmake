# Fails when the committed simcore/CALIBRATION.md differs from what the generator prints now.
# -DGENERATOR=<simcore_calibration> -DCOMMITTED=<path of CALIBRATION.md>
execute_process(COMMAND ${GENERATOR} OUTPUT_VARIABLE generated RESULT_VARIABLE rc
                ERROR_VARIABLE errors)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simcore_calibration failed (${rc}): ${errors}")
endif()
file(READ ${COMMITTED} committed)
if(NOT generated STREQUAL committed)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/CALIBRATION.generated.md "${generated}")
  message(FATAL_ERROR "${COMMITTED} is out of date (the generator now prints "
          "${CMAKE_CURRENT_BINARY_DIR}/CALIBRATION.generated.md): run "
          "scripts/update_calibration.sh BUILD_DIR and commit the file")
endif()
