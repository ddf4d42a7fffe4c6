import Dispatch

extension Duration {
    /// The duration as libdispatch takes it: negative is zero, too long is `.never`.
    @usableFromInline package var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard seconds >= 0 else { return .nanoseconds(0) }
        let total = nanoseconds.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !nanoseconds.overflow, !total.overflow else { return .never }
        return .nanoseconds(Int(total.partialValue))
    }
}
