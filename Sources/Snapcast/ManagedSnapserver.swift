import EarshotCore
import Foundation

/// The snapserver Earshot starts itself when no `--snapcast HOST` is given and `snapserver` is
/// installed: its configuration written from `SnapcastServerConfig` at each start, the program
/// started and stopped with Earshot; started again when it dies, 5 s later (not after three deaths
/// within seconds of starting: a port taken by another snapserver, say — that is logged).
///
/// It must never outlive Earshot (a `kill -9` of Earshot would leave it holding its ports): it is
/// started through util-linux's `setpriv --pdeathsig KILL`, which execs snapserver with the
/// parent-death signal set. That signal follows the *thread* that started it, so every start
/// happens on one thread of this object's own that lives as long as the process.
public final class ManagedSnapserver: @unchecked Sendable {
    // @unchecked: `process` and `stopping` are behind `lock`.
    public let config: SnapcastServerConfig
    private let executable: String
    private let lock = NSLock()
    private var process: Process?
    private var stopping = false
    private var quickDeaths = 0
    private var startedAt = Date.distantPast
    private let spawner = SpawnThread()

    /// The installed snapserver, if any (searched on PATH).
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/snapserver"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    public init(config: SnapcastServerConfig, executable: String) {
        self.config = config
        self.executable = executable
    }

    /// Writes the configuration and starts the server.
    public func start() throws {
        try FileManager.default.createDirectory(atPath: config.folder + "/data", withIntermediateDirectories: true)
        try Data(config.text.utf8).write(to: URL(fileURLWithPath: config.configPath), options: .atomic)
        try launch()
    }

    private func launch() throws {
        let process = Process()
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--pdeathsig", "KILL", executable, "-c", config.configPath]
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["-c", config.configPath]
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [weak self] ended in self?.ended(ended) }
        try spawner.run { try process.run() }
        lock.withLock { self.process = process; startedAt = Date() }
        Log.info("snapcast", "started snapserver (pid \(process.processIdentifier)): audio port \(config.streamPort), control 127.0.0.1:\(config.controlPort)")
    }

    private func ended(_ ended: Process) {
        let (restart, deaths) = lock.withLock { () -> (Bool, Int) in
            guard process === ended else { return (false, 0) }
            process = nil
            quickDeaths = Date().timeIntervalSince(startedAt) < 10 ? quickDeaths + 1 : 0
            return (!stopping, quickDeaths)
        }
        guard restart else { return }
        let tail = (try? String(contentsOfFile: config.logPath, encoding: .utf8))?.split(separator: "\n").suffix(3).joined(separator: " / ") ?? ""
        guard deaths < 3 else {
            Log.error("snapcast", "snapserver keeps ending at once (status \(ended.terminationStatus))\(tail.isEmpty ? "" : ": \(tail)"); not starting it again (is port \(config.streamPort) or \(config.controlPort) taken? --snapcast-port, or --snapcast HOST for a snapserver of your own)")
            return
        }
        Log.warning("snapcast", "snapserver ended (status \(ended.terminationStatus))\(tail.isEmpty ? "" : ": \(tail)"); starting it again in 5 s")
        DispatchQueue.global().asyncAfter(deadline: .now() + 5) { [weak self] in
            guard let self, !self.lock.withLock({ self.stopping }) else { return }
            do { try self.launch() } catch { Log.error("snapcast", "could not start snapserver again: \(error)") }
        }
    }

    /// Stops the server: SIGTERM, and with `wait` waits for it (killed after 3 s). Without, Earshot
    /// goes on quitting (its position saved without a snapserver's 1–2 s goodbye in between); the
    /// parent-death signal ends the snapserver if it is still there when Earshot is gone.
    public func stop(wait: Bool = true) {
        let running = lock.withLock { () -> Process? in
            stopping = true
            return process
        }
        guard let running, running.isRunning else { return }
        running.terminate()
        guard wait else { return }
        let deadline = Date().addingTimeInterval(3)
        while running.isRunning, Date() < deadline { usleep(20_000) }
        if running.isRunning { kill(running.processIdentifier, SIGKILL) }
    }
}

/// One thread that lives as long as the process and runs what it is given, one thing at a time,
/// waiting for each (see `ManagedSnapserver`: a child's parent-death signal follows this thread).
final class SpawnThread: @unchecked Sendable {
    // @unchecked: `work` and `result` are handed over under `lock`, in turn, by the semaphores.
    private let lock = NSLock()
    private let ready = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let serial = NSLock()
    private var work: (() throws -> Void)?
    private var failure: (any Error)?

    init() {
        let thread = Thread { [self] in
            while true {
                self.ready.wait()
                let job = self.lock.withLock { self.work }
                var error: (any Error)?
                do { try job?() } catch let caught { error = caught }
                self.lock.withLock { self.failure = error }
                self.done.signal()
            }
        }
        thread.name = "snapcast-spawn"
        thread.start()
    }

    /// Runs `job` on the thread and waits for it.
    func run(_ job: @escaping () throws -> Void) throws {
        serial.lock(); defer { serial.unlock() }
        lock.withLock { work = job; failure = nil }
        ready.signal()
        done.wait()
        if let failure = lock.withLock({ failure }) { throw failure }
    }
}
