import Foundation

// What every engine saves alike, to and from the state file: the pending list, the categories
// and the authorization. Each engine adds its own delivered list.
extension EngineState {
    /// The state of an engine's pending list, categories and authorization; no delivered
    /// notifications yet. A request that cannot be written is left out and logged
    /// (``entry(of:_:)``).
    init(
        pending: PendingTable, categories: [String: UNNotificationCategory], status: UNAuthorizationStatus,
        options: UNAuthorizationOptions
    ) {
        self.init()
        self.pending = pending.entries.values.compactMap { entry in
            EngineState.entry(of: entry.identifier) {
                EngineState.Pending(request: try NotificationRequestSnapshot(entry.request), anchor: entry.anchor, nextFire: entry.nextFire)
            }
        }
        self.categories = categories.values.map(NotificationCategorySnapshot.init)
        authorizationStatus = status.rawValue
        authorizationOptions = options.rawValue
    }

    /// Takes in the saved categories when the engine has none (the center's, set meanwhile,
    /// win) and the saved authorization when the engine's is not determined.
    func adoptCategoriesAndAuthorization(
        into categories: inout [String: UNNotificationCategory], _ status: inout UNAuthorizationStatus,
        _ options: inout UNAuthorizationOptions
    ) {
        if categories.isEmpty {
            for snapshot in self.categories {
                let category = snapshot.makeCategory()
                categories[category.identifier] = category
            }
        }
        if status == .notDetermined, let saved = authorizationStatus.flatMap(UNAuthorizationStatus.init(rawValue:)) {
            status = saved
            options = UNAuthorizationOptions(rawValue: authorizationOptions ?? 0)
        }
    }
}
