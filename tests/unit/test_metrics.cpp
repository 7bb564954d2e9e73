// The metrics registry and its exposition: sums across threads, bucket placement, escaping of
// label values, the cap on series, and both text formats.
#include "util/metrics.hpp"
#include "util/metrics_exposition.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace mcp::detail::metrics;
using namespace std::chrono_literals;

TEST(Metrics, CounterSumsEveryThreadsShare) {
    Registry registry;
    auto& counter = registry.family("t_hits_total", "hits", Type::counter).counter({});
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 10000; ++i) counter.add();
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(counter.value(), 80000u);
}

TEST(Metrics, GaugeScopeCountsWhileAlive) {
    Registry registry;
    auto& gauge = registry.family("t_open", "open", Type::gauge).gauge({});
    {
        GaugeScope a(&gauge);
        GaugeScope b(&gauge);
        EXPECT_EQ(gauge.value(), 2);
        GaugeScope moved(std::move(b));
        EXPECT_EQ(gauge.value(), 2);
    }
    EXPECT_EQ(gauge.value(), 0);
}

TEST(Metrics, HistogramBucketsAreUpperBoundsInclusive) {
    Histogram h({0.001, 0.01, 1});
    h.observe(1ms);     // le 0.001
    h.observe(1500us);  // le 0.01
    h.observe(2s);      // +Inf only
    h.observe(-5ms);    // clamped to 0: le 0.001
    const auto s = h.snapshot();
    ASSERT_EQ(s.cumulative.size(), 4u);
    EXPECT_EQ(s.cumulative[0], 2u);
    EXPECT_EQ(s.cumulative[1], 3u);
    EXPECT_EQ(s.cumulative[2], 3u);
    EXPECT_EQ(s.cumulative[3], 4u);
    EXPECT_NEAR(s.sum, 0.001 + 0.0015 + 2, 1e-9);
}

TEST(Metrics, HistogramRefusesBadBounds) {
    EXPECT_THROW(Histogram({}), std::invalid_argument);
    EXPECT_THROW(Histogram({1, 0.5}), std::invalid_argument);
    EXPECT_THROW(Histogram(Buckets(25, 1.0)), std::invalid_argument);
}

TEST(Metrics, ExemplarKeepsATraceIdPerBucketAtMostOncePerSecond) {
    Histogram h({0.001});
    h.observe(500us, "0af7651916cd43dd8448eb211c80319c");
    h.observe(600us, "4bf92f3577b34da6a3ce929d0e0e4736");  // within the second: not kept
    h.observe(700us, "not-a-trace-id");                    // wrong length: ignored
    const auto s = h.snapshot();
    EXPECT_EQ(s.exemplars[0].trace_id, "0af7651916cd43dd8448eb211c80319c");
    EXPECT_NEAR(s.exemplars[0].value, 0.0005, 1e-9);
    EXPECT_TRUE(s.exemplars[1].trace_id.empty());
}

TEST(Metrics, FamiliesAreBoundedAndFoldTheRestIntoOther) {
    Registry registry;
    auto& family = registry.family("t_calls_total", "calls", Type::counter, {"name"});
    for (std::size_t i = 0; i < Family::kMaxSeries + 500; ++i) family.counter({std::to_string(i)}).add();
    const auto samples = family.collect();
    EXPECT_EQ(samples.size(), Family::kMaxSeries + 1);  // the cap, and "other"
    const auto other =
        std::find_if(samples.begin(), samples.end(), [](const auto& s) { return s.labels[0] == "other"; });
    ASSERT_NE(other, samples.end());
    EXPECT_EQ(other->counter->value(), 500u);
}

TEST(Metrics, RedeclaringAFamilyDifferentlyIsABug) {
    Registry registry;
    registry.family("t_x_total", "x", Type::counter, {"a"});
    EXPECT_NO_THROW(registry.family("t_x_total", "x", Type::counter, {"a"}));
    EXPECT_THROW(registry.family("t_x_total", "x", Type::gauge, {"a"}), std::logic_error);
    EXPECT_THROW(registry.family("t_x_total", "x", Type::counter, {"b"}), std::logic_error);
    EXPECT_THROW(registry.family("t_x_total", "x", Type::counter, {"a"}).counter({}), std::logic_error);
}

TEST(Metrics, CallbackGaugeIsReadWhenScrapedAndGoesWithItsHandle) {
    Registry registry;
    double value = 3;
    {
        auto handle =
            registry.family("t_threads", "threads", Type::gauge, {"state"}).callback({"idle"}, [&] { return value; });
        value = 7;
        const auto text = expose(registry, Format::prometheus_text);
        EXPECT_NE(text.find("t_threads{state=\"idle\"} 7.0\n"), std::string::npos) << text;
    }
    EXPECT_EQ(expose(registry, Format::prometheus_text).find("t_threads{"), std::string::npos);
}

TEST(Metrics, CallbackGaugesWithTheSameLabelsAddUp) {
    Registry registry;
    auto& family = registry.family("t_pool", "threads", Type::gauge, {"state"});
    auto a = family.callback({"idle"}, [] { return 2.0; });
    auto b = family.callback({"idle"}, [] { return 3.0; });  // a second server in the process
    const auto text = expose(registry, Format::prometheus_text);
    EXPECT_NE(text.find("t_pool{state=\"idle\"} 5.0\n"), std::string::npos) << text;
    EXPECT_EQ(family.collect().size(), 1u);
}

TEST(Metrics, TextFormatEscapesLabelValues) {
    Registry registry;
    registry.family("t_req_total", "Requests, by \\ and\nnewline", Type::counter, {"name"})
        .counter({"a\"b\\c\nd} e"})
        .add(2);
    const auto text = expose(registry, Format::prometheus_text);
    EXPECT_EQ(text,
              "# HELP t_req_total Requests, by \\\\ and\\nnewline\n"
              "# TYPE t_req_total counter\n"
              "t_req_total{name=\"a\\\"b\\\\c\\nd} e\"} 2\n");
}

TEST(Metrics, OpenMetricsNamesCountersWithoutTotalAndEnds) {
    Registry registry;
    registry.family("t_req_total", "Requests", Type::counter).counter({}).add();
    auto& h = registry.family("t_seconds", "Durations", Type::histogram, {"tool"}, {0.5}).histogram({"echo"});
    h.observe(100ms, "0af7651916cd43dd8448eb211c80319c");
    const auto text = expose(registry, Format::openmetrics);
    EXPECT_NE(text.find("# TYPE t_req counter\nt_req_total 1\n"), std::string::npos) << text;
    EXPECT_NE(
        text.find(
            "t_seconds_bucket{tool=\"echo\",le=\"0.5\"} 1 # {trace_id=\"0af7651916cd43dd8448eb211c80319c\"} 0.1 "),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("t_seconds_bucket{tool=\"echo\",le=\"+Inf\"} 1\n"), std::string::npos) << text;
    EXPECT_NE(text.find("t_seconds_count{tool=\"echo\"} 1\nt_seconds_sum{tool=\"echo\"} 0.1\n"), std::string::npos)
        << text;
    EXPECT_TRUE(text.ends_with("# EOF\n"));
    // The classic format has no exemplars and no EOF.
    const auto classic = expose(registry, Format::prometheus_text);
    EXPECT_EQ(classic.find(" # {"), std::string::npos);
    EXPECT_EQ(classic.find("# EOF"), std::string::npos);
    EXPECT_NE(classic.find("# TYPE t_req_total counter\n"), std::string::npos);
}

TEST(Metrics, AcceptHeaderPicksTheFormat) {
    EXPECT_EQ(format_for("application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"),
              Format::openmetrics);
    EXPECT_EQ(format_for("text/plain"), Format::prometheus_text);
    EXPECT_EQ(format_for(""), Format::prometheus_text);
}
