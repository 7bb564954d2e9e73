# Small pieces of src/util that stand alone.
mcp_unit_test(test_bounded_count test_bounded_count.cpp)
