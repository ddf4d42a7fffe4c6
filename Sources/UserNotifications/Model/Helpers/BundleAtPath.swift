import DesktopNotificationsSupport
import Foundation

/// The bundle a stored deferred localization names by its path, opened only when a text is
/// looked up in it (at delivery), never when the localization is read from a record or a
/// state file: the agent reads a request before it knows whether its caller may name a path,
/// and refuses a sandboxed app's path unopened (``AgentPayload/bundlePathField(in:)``).
///
/// A path that names no bundle then looks the text up in the main bundle, as a stored path
/// that no longer opens always did.
final class BundleAtPath: LocalizedStringSource {
    /// The bundle's path, as stored.
    let path: String
    /// The bundle, once opened (the main bundle when the path names none).
    private let opened = Locked<Bundle?>(nil)

    init(path: String) {
        self.path = path
    }

    /// The text for `key` in the bundle at ``path``, opened now if it was not yet.
    func localizedString(forKey key: String, value: String?, table tableName: String?) -> String {
        bundle.localizedString(forKey: key, value: value, table: tableName)
    }

    private var bundle: Bundle {
        opened.withLock { opened in
            if let opened { return opened }
            let bundle = Bundle(path: path) ?? Bundle.main
            opened = bundle
            return bundle
        }
    }
}
