import Foundation
import UserNotifications
import UserNotificationsTesting

/// The location rows: region-10k feeds 1,000 fixes (a walk through Paris) to a region monitor
/// that watches 10,000 circles of 100 m to 5 km scattered over 50 km, and reports the time per
/// fix (the work the center or the agent does for each GeoClue position).
enum LocationRows {
    @MainActor
    static func regions(_ options: Options) async throws {
        let regionCount = 10_000
        let fixCount = 1_000
        var generator = SeededGenerator(seed: 16)
        var monitor = RegionMonitor<Int>()
        for index in 0..<regionCount {
            monitor.watch(index, region: LocationTriggerRegion(
                latitude: 48.8566 + Double.random(in: -0.25...0.25, using: &generator),
                longitude: 2.3522 + Double.random(in: -0.35...0.35, using: &generator),
                radius: Double.random(in: 100...5_000, using: &generator), identifier: "r\(index)"))
        }
        let fixes = (0..<fixCount).compactMap { step in
            LocationFix(latitude: 48.8 + Double(step) * 0.0001, longitude: 2.3 + Double(step) * 0.0001, accuracy: 20)
        }
        var crossings = 0
        var samples: [Sample] = []
        for _ in 0..<options.samples {
            var copy = monitor
            samples.append(await measure {
                for fix in fixes { crossings += copy.take(fix).count }
            })
        }
        report("region-10k", count: fixCount, samples: samples, extra: "regions=\(regionCount) crossings=\(crossings / max(1, options.samples))")
    }
}
