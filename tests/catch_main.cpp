// Catch2's main, compiled once for all test files.
#define CATCH_CONFIG_MAIN
#include "tests/catch.hpp"
