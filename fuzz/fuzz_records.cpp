// libFuzzer target: any bytes as a record file. Every game is read through the streaming reader
// (splitter, encoding, grammar, replay), written canonically and read again (record_checks.hpp);
// a failed check traps, so the fuzzer keeps the input.
#include <cstdint>
#include <string_view>

#include "fuzz/record_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (!gounki::fuzz::check_records(std::string_view(reinterpret_cast<const char*>(data), size)).empty()) __builtin_trap();
    return 0;
}
