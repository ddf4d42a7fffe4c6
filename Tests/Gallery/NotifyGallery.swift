// notify-gallery: seed 000's notification on every desktop the test kit runs, as pictures.
//
//   notify-gallery FOLDER [DESKTOP...]
//
// Writes FOLDER/<desktop>.png for each desktop (all of them by default: gnome, plasma, xfce,
// mako, dunst, terminal) and FOLDER/README.md, the index. A desktop that cannot be captured
// gets its reason in the index, and the program exits 1 after writing the rest.
import Foundation
import UserNotificationsTesting

@main
struct NotifyGallery {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let folderPath = arguments.first, !folderPath.hasPrefix("-") else {
            FileHandle.standardError.write(Data("usage: notify-gallery FOLDER [\(GalleryDesktop.allCases.map(\.rawValue).joined(separator: "|"))...]\n".utf8))
            exit(2)
        }
        arguments.removeFirst()
        var desktops: [GalleryDesktop] = []
        for name in arguments {
            guard let desktop = GalleryDesktop(rawValue: name) else {
                FileHandle.standardError.write(Data("notify-gallery: no desktop \(name)\n".utf8))
                exit(2)
            }
            desktops.append(desktop)
        }
        if desktops.isEmpty { desktops = GalleryDesktop.allCases }
        let folder = URL(fileURLWithPath: folderPath, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            FileHandle.standardError.write(Data("notify-gallery: \(error)\n".utf8))
            exit(1)
        }
        var failures: [GalleryDesktop: String] = [:]
        for desktop in desktops {
            let destination = folder.appendingPathComponent(desktop.fileName)
            print("\(desktop.title)…")
            do {
                try await Gallery.capture(desktop, to: destination)
                let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int) ?? 0
                print("  \(destination.path) (\(size) bytes)")
            } catch {
                failures[desktop] = "\(error)"
                FileHandle.standardError.write(Data("notify-gallery: \(desktop.rawValue): \(error)\n".utf8))
            }
        }
        // The index lists every picture in the folder, so a run for one desktop keeps the others.
        let pictures = GalleryDesktop.allCases.filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0.fileName).path) }
        do {
            try Gallery.index(pictures: pictures, failures: failures).write(
                to: folder.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        } catch {
            FileHandle.standardError.write(Data("notify-gallery: \(error)\n".utf8))
            exit(1)
        }
        exit(failures.isEmpty ? 0 : 1)
    }
}
