// Whether a sampled series trends upward after warm-up. A leak shows as growth that does not stop:
// the median of the last third of the samples after warm-up is compared with the median of the
// first third, and the least-squares slope must point up as well. Growth within the tolerance
// (absolute or relative to the first third, whichever is larger) is noise: allocator arenas
// settling, handler threads that come and go, sessions left to expire.

// Per metric: the growth tolerated between the first and the last third.
export const TOLERANCE = {
    rss_kb: { abs: 4 * 1024, rel: 0.10 },
    threads: { abs: 8, rel: 0.30 },
    fds: { abs: 8, rel: 0.25 },
    redis_keys: { abs: 100, rel: 0.30 },
    redis_memory_kb: { abs: 2 * 1024, rel: 0.20 },
};

function median(values) {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// Least-squares slope of values over t (per unit of t).
function slope(t, values) {
    const n = values.length;
    const mt = t.reduce((a, b) => a + b, 0) / n;
    const mv = values.reduce((a, b) => a + b, 0) / n;
    let num = 0;
    let den = 0;
    for (let i = 0; i < n; ++i) {
        num += (t[i] - mt) * (values[i] - mv);
        den += (t[i] - mt) ** 2;
    }
    return den === 0 ? 0 : num / den;
}

// points: [{ t (seconds), v }], all after warm-up. Returns the figures and the verdict.
export function judge(metric, points) {
    const tolerance = TOLERANCE[metric];
    if (points.length < 6) return { metric, samples: points.length, verdict: 'too few samples', upward: false, judged: false };
    const third = Math.floor(points.length / 3);
    const first = median(points.slice(0, third).map((p) => p.v));
    const last = median(points.slice(-third).map((p) => p.v));
    const perHour = slope(points.map((p) => p.t), points.map((p) => p.v)) * 3600;
    const allowed = Math.max(tolerance.abs, tolerance.rel * first);
    const growth = last - first;
    const upward = growth > allowed && perHour > 0;
    return {
        metric,
        samples: points.length,
        first_third_median: first,
        last_third_median: last,
        growth,
        allowed_growth: allowed,
        slope_per_hour: Math.round(perHour * 10) / 10,
        min: Math.min(...points.map((p) => p.v)),
        max: Math.max(...points.map((p) => p.v)),
        upward,
        judged: true,
        verdict: upward ? 'trends upward' : 'flat',
    };
}
