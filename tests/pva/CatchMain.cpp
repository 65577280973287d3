// Catch2 main of the pva-face tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
