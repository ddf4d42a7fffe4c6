import Testing

/// The seed posts' Swift samples (Samples/), run against `UNUserNotificationCenter.current()` on
/// a private bus with a fake notification server (Harness/SeedCenter.swift).
///
/// Every suite of this target is nested here: `.serialized` applies to nested suites too, so
/// no two tests use the process-wide center at the same time.
@Suite("Seed samples behave as their posts describe", .serialized, .timeLimit(.minutes(1)))
struct SeedSamplesTests {}
