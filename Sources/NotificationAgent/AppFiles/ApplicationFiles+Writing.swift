import Foundation

extension ApplicationFiles {
    /// The data folder the files go under: `outputDirectory` when given, else
    /// `$XDG_DATA_HOME` when it is absolute, else `$HOME/.local/share`; `nil` when none is known.
    package static func dataHome(outputDirectory: String?, environment: [String: String]) -> String? {
        if let outputDirectory { return outputDirectory }
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") { return dataHome }
        return environment["HOME"].flatMap { $0.hasPrefix("/") ? "\($0)/.local/share" : nil }
    }

    /// The files and their text: `applications/<id>.desktop` and, for a D-Bus activatable
    /// app, `dbus-1/services/<id>.service`, under `dataHome`.
    package func files(under dataHome: String) -> [(path: String, text: String)] {
        var files = [("\(dataHome)/applications/\(id).desktop", desktopEntry)]
        if let service { files.append(("\(dataHome)/dbus-1/services/\(id).service", service)) }
        return files
    }

    /// Writes ``files(under:)``, each atomically, making their folders. Nothing is written
    /// when one of them exists with other text and `force` is `false`.
    ///
    /// - Returns: Each file's path, and whether it was written (`false`: it held this text).
    /// - Throws: ``ApplicationFilesError/exists(path:)`` or
    ///   ``ApplicationFilesError/writeFailed(path:reason:)``.
    package func write(under dataHome: String, force: Bool) throws(ApplicationFilesError) -> [(path: String, written: Bool)] {
        let files = files(under: dataHome)
        var changed: [Bool] = []
        for (path, text) in files {
            let current = FileManager.default.contents(atPath: path)
            changed.append(current != Data(text.utf8))
            if current != nil, changed.last == true, !force { throw .exists(path: path) }
        }
        for ((path, text), change) in zip(files, changed) where change {
            do {
                let url = URL(fileURLWithPath: path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url, options: .atomic)
            } catch {
                throw .writeFailed(path: path, reason: "\(error.localizedDescription)")
            }
        }
        return zip(files, changed).map { ($0.0.path, $0.1) }
    }
}
