import DesktopNotificationsSupport

extension UNNotificationCategory {
    /// `categories` with one category of each identifier; the set itself when no two share one.
    ///
    /// A `Set` may hold two unequal categories of one identifier, and its order changes from
    /// one process to the next. Of several sharing an identifier, every engine keeps the same
    /// one, the one the agent's records keep
    /// (``NotificationCategorySnapshot/oneOfEachIdentifier(_:)``): the first by its JSON with
    /// sorted keys. So the categories an app registers, and reads back, are the same whatever
    /// engine serves it and whatever order its set has.
    static func oneOfEachIdentifier(_ categories: Set<UNNotificationCategory>) -> Set<UNNotificationCategory> {
        let groups = Dictionary(grouping: categories, by: \.identifier)
        guard groups.count < categories.count else { return categories }
        var kept = Set<UNNotificationCategory>(minimumCapacity: groups.count)
        for tied in groups.values {
            do {
                kept.insert(try NotificationCategorySnapshot.first(of: tied, snapshot: NotificationCategorySnapshot.init))
            } catch {
                SubsystemLog.center.logger.error(
                    "of several categories sharing an identifier, one was kept at random",
                    metadata: ["error": SubsystemLog.describe(error)])
                kept.insert(tied[0])
            }
        }
        return kept
    }
}
