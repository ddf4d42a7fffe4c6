import Foundation
import UserNotifications

/// The app ids `notify` handed scheduled requests to the agent for, so that `notify pending`
/// and `notify cancel` know which of the agent's apps are notify's: one empty file per id in
/// `$XDG_STATE_HOME/notify/agent-apps/` (a private folder, ``PrivateStorage``).
///
/// An id is recorded before its request is handed over and again after, so that a `notify
/// pending` that forgets an id holding nothing in the meantime cannot lose a request just
/// handed over. At most ``maximumCount`` ids are kept.
enum AgentApps {
    /// The most ids kept; a scheduled `notify` for one more app waits in its own process.
    static let maximumCount = 256

    /// The folder of the ids.
    static var directory: URL {
        IdentifierStore.directory.appendingPathComponent("agent-apps", isDirectory: true)
    }

    /// Records `id`; `false` when ``maximumCount`` other ids are recorded already.
    ///
    /// - Throws: ``StateStoreError`` when the folder or the file cannot be written.
    static func record(_ id: String) throws -> Bool {
        try PrivateStorage.prepareFolder(directory.path)
        let known = list()
        guard known.contains(id) || known.count < maximumCount else { return false }
        try PrivateStorage.writeFile(Data(), to: directory.appendingPathComponent(id).path)
        return true
    }

    /// The ids recorded, sorted; names in the folder that are not app ids are left out.
    static func list() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let ids = names.filter { (try? ApplicationIdentity.validate(id: $0)) != nil }
        return Array(ids.sorted().prefix(maximumCount))
    }

    /// Forgets `id` (the agent holds nothing for it).
    static func forget(_ id: String) {
        try? PrivateStorage.remove(directory.appendingPathComponent(id).path)
    }
}
