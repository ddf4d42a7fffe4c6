#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ApplicationLauncher {
    /// Starts the entry's Exec, detached, with the token in the environment.
    func spawn(_ located: LocatedDesktopEntry, activationToken: String?) throws(ApplicationLaunchError) -> (Int32, [String]) {
        let parsed: ExecCommandLine?
        do {
            parsed = try located.entry.commandLine()
        } catch {
            throw .invalidDesktopEntry(path: located.path, error)
        }
        guard let commandLine = parsed else { throw .noExec(path: located.path) }
        let entry = located.entry
        let arguments = commandLine.expanded(with: .init(icon: entry.icon, name: entry.name, location: located.path))
        let program = try resolve(arguments[0])
        return (try DetachedProcess.spawn(path: program, arguments: arguments, environment: childEnvironment(activationToken)), arguments)
    }

    /// The launched app's environment: the token set, or removed when there is none, and the
    /// variables of the agent's own D-Bus activation removed.
    func childEnvironment(_ activationToken: String?) -> [String: String] {
        var result = environment
        result["XDG_ACTIVATION_TOKEN"] = activationToken
        result["DESKTOP_STARTUP_ID"] = activationToken
        result["DBUS_STARTER_ADDRESS"] = nil
        result["DBUS_STARTER_BUS_TYPE"] = nil
        return result
    }

    /// `program` as given when it holds a `/`, else the first executable file of that name
    /// on the environment's `PATH`.
    func resolve(_ program: String) throws(ApplicationLaunchError) -> String {
        if program.contains("/") { return program }
        guard let found = ExecutableSearch.find(program, in: environment) else { throw .spawnFailed(program: program, errno: ENOENT) }
        return found
    }
}
