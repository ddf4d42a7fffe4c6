public import Foundation

/// A rectangle of a screenshot, in pixels.
public struct GalleryRegion: Sendable, Hashable, CustomStringConvertible {
    /// The left edge.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// The width.
    public var width: Int
    /// The height.
    public var height: Int

    /// Creates a region.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the region has an area.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The region grown by `margin` on every side, its corner kept at or past (0, 0).
    public func grown(by margin: Int) -> GalleryRegion {
        let left = max(0, x - margin), top = max(0, y - margin)
        return GalleryRegion(x: left, y: top, width: width + (x - left) + margin, height: height + (y - top) + margin)
    }

    /// ImageMagick's geometry, for example `400x120+860+20`.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// The picture tools of the gallery: screenshots through the X server (`xwd`) and wlroots
/// compositors (`grim`), cropping and palette reduction (ImageMagick), and reading the text
/// back (`tesseract`).
///
/// Each tool is required: a missing one fails with ``MissingToolError`` naming its Debian
/// package, never a skipped picture.
public enum GalleryImaging {
    /// The Debian package of each program the gallery runs.
    public static let packages: [String: String] = [
        "convert": "imagemagick",
        "identify": "imagemagick",
        "grim": "grim",
        "tesseract": "tesseract-ocr",
        "xterm": "xterm",
        "xwd": "x11-apps",
        "xdotool": "xdotool",
    ]

    /// The program `tool`, failing with its Debian package named when it is missing.
    ///
    /// ImageMagick's programs are taken from `/usr/bin`: another `convert` earlier on `PATH`
    /// (a stand-in script, GraphicsMagick) does not take the same options.
    public static func require(_ tool: String) throws -> URL {
        let name = ["convert", "identify"].contains(tool) ? "/usr/bin/\(tool)" : tool
        do {
            return try ToolRequirement.require(name)
        } catch let error as MissingToolError {
            throw MissingToolError(tool: tool, package: packages[tool], searched: error.searched)
        }
    }

    /// Runs `tool` with `arguments` and `environment` (this process's by default) and
    /// returns its result when it succeeds.
    ///
    /// - Throws: ``MissingToolError``; ``HarnessError/commandFailed(_:)`` when it fails.
    @discardableResult
    public static func run(
        _ tool: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        timeout: Duration = .seconds(60)
    ) async throws -> CommandResult {
        let process = try ChildProcess(executable: require(tool), arguments: arguments, environment: environment)
        return try await process.result(timeout: timeout).check()
    }

    /// The whole screen of X display `display` (for example `:3`) as a PNG at `destination`,
    /// through `xwd -root` and ImageMagick.
    public static func captureX(display: String, to destination: URL) async throws {
        let dump = destination.deletingPathExtension().appendingPathExtension("xwd")
        defer { try? FileManager.default.removeItem(at: dump) }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        try await run("xwd", ["-root", "-silent", "-display", display, "-out", dump.path], environment: environment)
        try await run("convert", ["xwd:" + dump.path, destination.path])
    }

    /// The whole output of a wlroots compositor as a PNG at `destination`, through `grim`
    /// (wlr-screencopy) as a client of `compositor`.
    public static func captureWayland(_ compositor: SwayCompositor, to destination: URL) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = compositor.runtimeDirectory.path
        environment["WAYLAND_DISPLAY"] = compositor.waylandDisplay
        environment["DISPLAY"] = nil
        try await run("grim", ["-t", "png", destination.path], environment: environment)
    }

    /// The geometry of the visible X windows of class name `className` on `display`, the
    /// largest first.
    public static func windows(className: String, display: String) async throws -> [GalleryRegion] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        let xdotool = try require("xdotool")
        let search = try await ChildProcess(
            executable: xdotool, arguments: ["search", "--onlyvisible", "--classname", className], environment: environment
        ).result(timeout: .seconds(10))
        // xdotool exits 1 when it finds nothing.
        guard search.succeeded else {
            guard search.standardError.isEmpty else { throw HarnessError.commandFailed(search) }
            return []
        }
        var regions: [GalleryRegion] = []
        for id in search.standardOutput.split(separator: "\n").compactMap({ Int($0) }) {
            let shell = try await ChildProcess(
                executable: xdotool, arguments: ["getwindowgeometry", "--shell", String(id)], environment: environment
            ).result(timeout: .seconds(10))
            guard shell.succeeded else { continue }
            let window = try XfceNotifyServer.window(id, geometry: shell.standardOutput)
            regions.append(GalleryRegion(x: window.x, y: window.y, width: window.width, height: window.height))
        }
        return regions.sorted { $0.width * $0.height > $1.width * $1.height }
    }

    /// Waits until a visible window of class name `className` is on `display` and keeps its
    /// geometry for 200 ms; returns the largest. `owner`, the program that opens the window
    /// when the caller started it, is watched: its exit ends the wait.
    ///
    /// - Throws: ``HarnessError/timedOut(operation:after:detail:)`` at the deadline;
    ///   ``HarnessError/startFailed(program:reason:log:)`` when `owner` exits first.
    public static func waitForWindow(
        className: String, display: String, owner: ChildProcess? = nil, timeout: Duration = .seconds(30)
    ) async throws -> GalleryRegion {
        var previous: GalleryRegion?
        return try await HarnessLifecycle.poll(
            "waiting for a \(className) window on \(display)", timeout: timeout, interval: .milliseconds(200),
            detail: { "\(previous.map(\.description) ?? "none"); \(owner?.standardError ?? "")" }
        ) {
            if let owner, let status = owner.exitStatus {
                throw HarnessError.startFailed(
                    program: owner.executable.lastPathComponent, reason: "it exited (\(status)) before its window showed",
                    log: owner.standardOutput + owner.standardError)
            }
            let current = try await windows(className: className, display: display).first
            defer { previous = current }
            return current != nil && current == previous ? current : nil
        }
    }

    /// How the picture at `source` becomes the gallery's file at `destination`.
    public enum Crop: Sendable, Hashable {
        /// This rectangle.
        case region(GalleryRegion)
        /// This rectangle, then what is left trimmed against the colour of its corners.
        case trimmedRegion(GalleryRegion)
    }

    /// Crops `source` as `crop` says, reduces it to a 64-colour palette and writes it,
    /// stripped of metadata, to `destination`: a few tens of KB for a notification.
    public static func finish(_ source: URL, crop: Crop, to destination: URL) async throws {
        var arguments = [source.path]
        switch crop {
        case .region(let region):
            arguments += ["-crop", region.description, "+repage"]
        case .trimmedRegion(let region):
            arguments += ["-crop", region.description, "+repage", "-fuzz", "3%", "-trim", "+repage"]
        }
        arguments += ["-strip", "-dither", "None", "-colors", "64", "-define", "png:compression-level=9", "PNG8:" + destination.path]
        try await run("convert", arguments)
    }

    /// The part of `region` where the pictures at `before` and `after` differ, or `nil` when
    /// they are the same there.
    public static func changedRegion(before: URL, after: URL, within region: GalleryRegion) async throws -> GalleryRegion? {
        let output = try await run("convert", [
            before.path, after.path, "-crop", region.description, "+repage", "-compose", "difference", "-composite",
            "-colorspace", "Gray", "-threshold", "4%", "-bordercolor", "black", "-border", "1", "-format", "%@", "info:",
        ]).standardOutput
        // "WxH+X+Y" of the changed (white) pixels, counted with the black border of 1 pixel that
        // makes a picture changed everywhere trim to itself; an unchanged one trims to 0x0.
        let numbers = output.split(whereSeparator: { "x+".contains($0) }).compactMap { Int($0) }
        guard numbers.count == 4 else {
            throw HarnessError.unexpectedOutput(command: "convert -format %@", output: output, reason: "not a geometry")
        }
        guard numbers[0] > 1, numbers[1] > 1 else { return nil }
        return GalleryRegion(x: region.x + numbers[2] - 1, y: region.y + numbers[3] - 1, width: numbers[0], height: numbers[1])
    }

    /// The width and height of the picture at `url`.
    public static func size(of url: URL) async throws -> (width: Int, height: Int) {
        let output = try await run("identify", ["-format", "%w %h", url.path]).standardOutput
        let numbers = output.split(separator: " ").compactMap { Int($0) }
        guard numbers.count == 2 else {
            throw HarnessError.unexpectedOutput(command: "identify \(url.path)", output: output, reason: "no width and height")
        }
        return (numbers[0], numbers[1])
    }

    /// The standard deviation of the picture's grey levels, from 0 (one flat colour) to 1.
    public static func contrast(of url: URL) async throws -> Double {
        let output = try await run("convert", [url.path, "-colorspace", "Gray", "-format", "%[fx:standard_deviation]", "info:"]).standardOutput
        guard let value = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError.unexpectedOutput(command: "convert \(url.path) info:", output: output, reason: "not a number")
        }
        return value
    }

    /// The text `tesseract` reads in the picture at `url` (English), after scaling it up
    /// three times in grey, dark text on light (small light-on-dark notification text reads far
    /// better so).
    public static func recognizeText(in url: URL) async throws -> String {
        let enlarged = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-ocr-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: enlarged) }
        let mean = try await run("convert", [url.path, "-colorspace", "Gray", "-format", "%[fx:mean]", "info:"]).standardOutput
        guard let brightness = Double(mean.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError.unexpectedOutput(command: "convert \(url.path) info:", output: mean, reason: "not a number")
        }
        try await run("convert", [url.path, "-colorspace", "Gray"] + (brightness < 0.5 ? ["-negate"] : []) + ["-resize", "300%", enlarged.path])
        return try await run("tesseract", [enlarged.path, "stdout", "-l", "eng", "--psm", "11"]).standardOutput
    }
}
