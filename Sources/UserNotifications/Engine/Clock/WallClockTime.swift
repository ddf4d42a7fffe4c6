import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension timespec {
    /// The wall-clock instant `date`, rounded up to the next nanosecond so that a timer never
    /// rings before the instant it stands for. Instants at or before 1970 become 1 ns after
    /// it (an absolute timer at zero would be disarmed, not due); far-future ones are capped.
    init(wallClock date: Date) {
        let latest: Double = 1e12
        let seconds = min(date.timeIntervalSince1970, latest)
        guard seconds > 0 else {
            self.init(tv_sec: 0, tv_nsec: 1)
            return
        }
        var whole = seconds.rounded(.down)
        var nanoseconds = ((seconds - whole) * 1e9).rounded(.up)
        if nanoseconds >= 1e9 {
            whole += 1
            nanoseconds = 0
        }
        self.init(tv_sec: Int(whole), tv_nsec: Int(nanoseconds))
    }
}
