/// The progress a notification's content carries (a Linux addition), and its form on the wire.
enum NotificationProgress {
    /// `value` clamped to 0...1; `nil` for a value that is not a number.
    static func clamped(_ value: Double) -> Double? {
        guard !value.isNaN else { return nil }
        return min(max(value, 0), 1)
    }

    /// The freedesktop `value` hint for `progress`: a percentage, 0 to 100, rounded.
    static func percent(_ progress: Double) -> Int32 {
        Int32((min(max(progress, 0), 1) * 100).rounded())
    }
}
