#pragma once
// A property a fuzz target checks: when it does not hold, the input is a finding. libFuzzer saves
// the input that made the process abort, so the message names the property and aborts.
#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition)                                                                            \
    do {                                                                                                 \
        if (!(condition)) {                                                                              \
            std::fprintf(stderr, "%s:%d: property does not hold: %s\n", __FILE__, __LINE__, #condition); \
            std::abort();                                                                                \
        }                                                                                                \
    } while (false)
