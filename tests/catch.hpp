#pragma once
// The one place that names the Catch2 header, so moving to Catch2 v3 touches this file only.
#include <catch2/catch.hpp>
