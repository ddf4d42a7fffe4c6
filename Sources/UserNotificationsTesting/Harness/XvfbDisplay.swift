import Foundation

/// A virtual X server (`Xvfb`) for programs that need a display, such as dunst.
///
/// Xvfb picks a free display number itself (`-displayfd`) and reports it on a pipe, so
/// parallel tests never race for the same display. It listens on a Unix socket only
/// (`-nolisten tcp`) and is stopped by its PID.
public final class XvfbDisplay: Sendable {
    /// The display number Xvfb chose, for example `0`.
    public let number: Int
    /// The `Xvfb` process.
    public let process: ChildProcess
    /// The socket this Xvfb made, as it was when Xvfb started: what ``stop(grace:)`` removes
    /// when Xvfb could not (it was killed), and only while it is still this file (another Xvfb
    /// may take the freed display number at once). With `-displayfd` Xvfb makes no lock file.
    private let socket: (path: String, identity: FileIdentity)?

    /// What tells a file from another made later at the same path: an inode alone does not,
    /// since a file system may give a removed file's inode to the next file made. With
    /// `-displayfd` Xvfb keeps no lock file, and takes a display number whose socket a killed
    /// Xvfb left by removing that file and making its own: checked by inode alone, a killed
    /// Xvfb's stop removed a new Xvfb's socket so, in a parallel test run.
    package struct FileIdentity: Equatable {
        let device: UInt
        let inode: UInt
        let changedSeconds: Int
        let changedNanoseconds: Int
    }

    /// The value for `DISPLAY`, for example `:0`.
    public var display: String { ":\(number)" }

    /// The PID of `Xvfb`.
    public var pid: Int32 { process.pid }

    /// Starts `Xvfb -displayfd 1 -screen 0 <screen> -nolisten tcp -noreset`.
    ///
    /// `-noreset`: an X server resets when its last client leaves (it frees everything and
    /// starts its next generation, checking its listening sockets again), and a client that
    /// connects meanwhile can be turned away. The gallery's terminal picture probes the display
    /// with `xdpyinfo`, then its only client, and starts `xterm` right after it left.
    ///
    /// - Parameters:
    ///   - screen: Width, height and depth of screen 0.
    ///   - startTimeout: How long to wait for Xvfb to report its display.
    /// - Throws: ``MissingToolError`` without `Xvfb`; ``HarnessError`` when it does not start.
    public init(screen: String = "1280x800x24", startTimeout: Duration = .seconds(10)) async throws {
        let xvfb = try ToolRequirement.require("Xvfb")
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        let process = try ChildProcess(
            executable: xvfb,
            arguments: ["-displayfd", "1", "-screen", "0", screen, "-nolisten", "tcp", "-noreset"],
            environment: environment
        )
        guard await process.waitForOutput(containing: "\n", timeout: startTimeout) else {
            await process.kill()
            throw HarnessError.startFailed(
                program: "Xvfb",
                reason: process.isRunning ? "no display number within \(startTimeout)" : "it exited with \(process.exitStatus.map { "\($0)" } ?? "?")",
                log: process.standardError
            )
        }
        guard let number = Int(process.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            await process.kill()
            throw HarnessError.unexpectedOutput(command: process.commandLine, output: process.standardOutput, reason: "not a display number")
        }
        self.number = number
        self.process = process
        let path = "/tmp/.X11-unix/X\(number)"
        socket = Self.identity(of: path).map { (path, $0) }
    }

    /// The identity of the file at `path` (not followed if a link), `nil` when there is none.
    package static func identity(of path: String) -> FileIdentity? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return FileIdentity(
            device: UInt(status.st_dev), inode: UInt(status.st_ino),
            changedSeconds: status.st_ctim.tv_sec, changedNanoseconds: status.st_ctim.tv_nsec)
    }


    deinit {
        process.send(SIGKILL)
    }

    /// Stops Xvfb: `SIGTERM` (it removes its socket), `SIGKILL` after `grace`; a socket a
    /// killed Xvfb left behind is removed here, when it is still the one this Xvfb made.
    public func stop(grace: Duration = .seconds(2)) async {
        await process.stop(grace: grace)
        if let socket, Self.identity(of: socket.path) == socket.identity {
            unlink(socket.path)
        }
    }
}
