import Foundation
import Testing
import UserNotificationsTesting

@Suite("ChildProcess: spawned, waited for and stopped by PID")
struct ChildProcessTests {
    private func shell(_ script: String) throws -> ChildProcess {
        try ChildProcess(executable: ToolRequirement.require("/bin/sh"), arguments: ["-c", script])
    }

    @Test("captures standard output, standard error and the exit code")
    func capturesOutput() async throws {
        let result = try await shell("echo out; echo err >&2; exit 3").result(timeout: .seconds(10))
        #expect(result.status == .exited(3))
        #expect(result.standardOutput == "out\n")
        #expect(result.standardError == "err\n")
        #expect(!result.succeeded)
        #expect(throws: HarnessError.self) { try result.check() }
    }

    @Test("passes exactly the given environment and no inherited descriptor")
    func environmentAndDescriptors() async throws {
        // Opened without O_CLOEXEC: a plain fork and exec would hand it to the child.
        let inheritable = open("/dev/null", O_RDONLY)
        try #require(inheritable > 2)
        defer { close(inheritable) }
        let child = try ChildProcess(
            executable: ToolRequirement.require("/bin/sh"),
            arguments: ["-c", "echo \"$HARNESS_VALUE\"; env | wc -l; [ -e /proc/$$/fd/\(inheritable) ] && echo leaked || echo closed"],
            environment: ["HARNESS_VALUE": "forty two", "PATH": "/usr/bin:/bin"]
        )
        let result = try await child.result(timeout: .seconds(10)).check()
        let lines = result.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "forty two")
        #expect(lines.last == "closed")
        // HARNESS_VALUE, PATH and the PWD that sh adds.
        #expect(lines.dropFirst().first.flatMap { Int($0) }.map { $0 <= 3 } == true)
    }

    @Test("a command past its deadline is killed and reported")
    func timeoutKills() async throws {
        let child = try shell("exec sleep 30")
        await #expect(throws: HarnessError.self) {
            try await child.result(timeout: .milliseconds(300))
        }
        #expect(child.exitStatus == .signaled(SIGKILL))
    }

    @Test("interrupt() delivers SIGINT with its default action")
    func interrupt() async throws {
        let child = try shell("exec sleep 30")
        #expect(child.interrupt())
        #expect(await child.waitForExit(timeout: .seconds(10)) == .signaled(SIGINT))
        #expect(!child.interrupt())
    }

    @Test("stop() escalates to SIGKILL when SIGTERM is ignored")
    func stopEscalates() async throws {
        let child = try shell("trap '' TERM; echo ready; exec sleep 30")
        #expect(await child.waitForOutput(containing: "ready\n", timeout: .seconds(10)))
        let status = await child.stop(grace: .milliseconds(300))
        #expect(status == .signaled(SIGKILL))
        #expect(Glibc.kill(child.pid, 0) == -1 && errno == ESRCH)
    }

    @Test("waitForOutput(containing:) is false once output closes without the text")
    func outputClosesWithoutText() async throws {
        let child = try shell("echo something else")
        #expect(await child.waitForOutput(containing: "never printed", timeout: .seconds(10)) == false)
        #expect(await child.waitForExit(timeout: .seconds(10)) == .exited(0))
    }

    @Test("a launch failure is reported, not crashed on")
    func launchFailure() {
        #expect(throws: HarnessError.self) {
            try ChildProcess(executable: URL(fileURLWithPath: "/nonexistent/program"))
        }
    }
}
