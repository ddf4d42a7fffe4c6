/// Checks `condition` until it holds, at most `timeout`: for state that follows a message
/// already sent (a signal on its way, a reply the fake server has recorded).
///
/// The default is generous: it costs nothing when the condition holds, and a whole suite run
/// in parallel on two cores beside other work can starve a test for seconds.
///
/// - Returns: whether it held in time.
public func eventually(timeout: Duration = .seconds(20), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        do {
            try await Task.sleep(for: .milliseconds(10))
        } catch {
            break
        }
    }
    return await condition()
}
