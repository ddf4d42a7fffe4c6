import Testing
import UserNotificationsTesting
@testable import UserNotifications

@Suite("Region monitor: entry and exit with hysteresis, fed virtual fixes")
struct RegionMonitorTests {
    typealias Points = LocationTestPoints

    @Test("the first fix decides inside or outside and reports nothing; a later crossing is reported")
    func firstFixDecidesSilently() {
        var monitor = RegionMonitor<String>()
        monitor.watch("r", region: Points.region())
        #expect(monitor.presence(of: "r") == .undecided)
        #expect(monitor.take(Points.fix(0)).isEmpty)
        #expect(monitor.presence(of: "r") == .inside)
        #expect(monitor.take(Points.fix(2_000)) == [RegionCrossing(key: "r", direction: .exited)])
        #expect(monitor.take(Points.fix(100)) == [RegionCrossing(key: "r", direction: .entered)])
    }

    @Test("a region added after a fix is decided by that fix at once, with no crossing")
    func addedAfterAFix() {
        var monitor = RegionMonitor<String>()
        _ = monitor.take(Points.fix(0))
        monitor.watch("r", region: Points.region())
        #expect(monitor.presence(of: "r") == .inside)
        #expect(monitor.take(Points.fix(10)).isEmpty)
    }

    @Test("inside only when the whole accuracy circle is inside; outside only when it is wholly outside")
    func accuracyCircleCounts() {
        let region = Points.region(radius: 500)
        #expect(RegionMonitor<String>.classify(Points.fix(400, accuracy: 90), in: region) == .inside)
        #expect(RegionMonitor<String>.classify(Points.fix(400, accuracy: 110), in: region) == .undecided)
        #expect(RegionMonitor<String>.classify(Points.fix(600, accuracy: 90), in: region) == .outside)
        #expect(RegionMonitor<String>.classify(Points.fix(600, accuracy: 110), in: region) == .undecided)
        // A perfect receiver on the border still counts the minimum margin (25 m for 500 m).
        #expect(RegionMonitor<String>.classify(Points.fix(490, accuracy: 0), in: region) == .undecided)
        #expect(RegionMonitor<String>.classify(Points.fix(510, accuracy: 0), in: region) == .undecided)
        // A fix as coarse as a country decides nothing for a small region.
        #expect(RegionMonitor<String>.classify(Points.fix(0, accuracy: 300_000), in: region) == .undecided)
    }

    @Test("noisy fixes on the border do not flap: one entry, then nothing until the device is clearly out")
    func noFlappingAtTheEdge() {
        var monitor = RegionMonitor<String>()
        monitor.watch("r", region: Points.region(radius: 500))
        _ = monitor.take(Points.fix(3_000))
        var generator = SeededGenerator(seed: 16)
        var crossings = monitor.take(Points.fix(200))
        #expect(crossings == [RegionCrossing(key: "r", direction: .entered)])
        // The device stands on the border; each fix is off by no more than the accuracy it
        // reports (a receiver that reports 0 jitters within 20 m, under the 25 m margin).
        for _ in 0..<1_000 {
            let accuracy = Double.random(in: 0...80, using: &generator)
            let error = Double.random(in: -1...1, using: &generator) * max(accuracy, 20)
            crossings = monitor.take(Points.fix(500 + error, accuracy: accuracy))
            #expect(crossings.isEmpty, "border fix \(500 + error) m ± \(accuracy) m crossed")
            if !crossings.isEmpty { break }
        }
        #expect(monitor.presence(of: "r") == .inside)
        #expect(monitor.take(Points.fix(3_000)) == [RegionCrossing(key: "r", direction: .exited)])
    }

    @Test("notifyOnEntry and notifyOnExit choose which crossings are reported")
    func switchesAreHonoured() {
        var monitor = RegionMonitor<String>()
        monitor.watch("entry", region: Points.region("entry", onEntry: true, onExit: false))
        monitor.watch("exit", region: Points.region("exit", onEntry: false, onExit: true))
        monitor.watch("neither", region: Points.region("neither", onEntry: false, onExit: false))
        _ = monitor.take(Points.fix(5_000))
        #expect(monitor.take(Points.fix(0)) == [RegionCrossing(key: "entry", direction: .entered)])
        #expect(monitor.take(Points.fix(5_000)) == [RegionCrossing(key: "exit", direction: .exited)])
        #expect(monitor.presence(of: "neither") == .outside)
    }

    @Test("an unwatched region reports nothing")
    func unwatch() {
        var monitor = RegionMonitor<String>()
        monitor.watch("r", region: Points.region())
        _ = monitor.take(Points.fix(5_000))
        monitor.unwatch("r")
        #expect(monitor.take(Points.fix(0)).isEmpty)
        #expect(monitor.isEmpty)
    }

    @Test("the accuracy level and distance threshold follow the smallest radius")
    func accuracyLevel() {
        #expect(GeoClueAccuracyLevel.forSmallestRadius(50) == .exact)
        #expect(GeoClueAccuracyLevel.forSmallestRadius(1_000) == .neighborhood)
        #expect(GeoClueAccuracyLevel.forSmallestRadius(999) == .street)
        #expect(GeoClueAccuracyLevel.forSmallestRadius(20_000) == .city)
        #expect(GeoClueAccuracyLevel.forSmallestRadius(80_000) == .country)
        #expect(GeoClueAccuracyLevel.distanceThreshold(forSmallestRadius: 1_000) == 100)
        #expect(GeoClueAccuracyLevel.distanceThreshold(forSmallestRadius: 3) == 1)
    }
}
