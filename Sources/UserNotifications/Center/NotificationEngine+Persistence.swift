import Foundation

extension NotificationEngine {
    /// Reads the saved state: categories and authorization as they were, pending requests
    /// rescheduled (an overdue one fires once, now), delivered notifications kept only while
    /// the server instance that shows them is still the owner.
    func restore() {
        guard let store else { return }
        let state: EngineState
        switch (try? store.load()) ?? .fresh {
        case .loaded(let saved): state = saved
        case .fresh, .setAside:
            pruneAttachments()
            return
        }
        for snapshot in state.categories {
            let category = snapshot.makeCategory()
            categories[category.identifier] = category
        }
        if let status = state.authorizationStatus.flatMap(UNAuthorizationStatus.init(rawValue:)) {
            authorizationStatus = status
        }
        authorizationOptions = UNAuthorizationOptions(rawValue: state.authorizationOptions ?? 0)
        for saved in state.pending {
            let request = saved.request.makeRequest()
            pending[request.identifier] = PendingEntry(request: request, anchor: saved.anchor, nextFire: saved.nextFire)
            scheduler.schedule(request.identifier, at: saved.nextFire)
        }
        let owner = client.serverOwner
        for saved in state.delivered where saved.server == owner {
            let notification = saved.notification.makeNotification()
            let key = ServerKey(server: saved.server, id: saved.id)
            delivered[notification.request.identifier] = DeliveredEntry(notification: notification, key: key)
            serverIndex[key] = notification.request.identifier
        }
        pruneAttachments()
    }

    /// Removes stored attachment files that no restored request uses.
    private func pruneAttachments() {
        guard let attachmentStore else { return }
        let requests = pending.values.map(\.request) + delivered.values.map(\.notification.request)
        let kept = Set(requests.flatMap { $0.content.attachments.compactMap(attachmentStore.folder(of:)) })
        attachmentStore.prune(keeping: kept)
    }

    /// How long a burst of changes is gathered into one write.
    static let saveCoalescing: Duration = .milliseconds(20)

    /// Saves the change: at once when nothing was written within ``saveCoalescing`` (so a
    /// process that adds one request and exits keeps it), else once at the end of that
    /// interval for the whole burst. Every write is crash-safe (temporary file, fsync, rename,
    /// fsync of the folder).
    func scheduleSave() {
        guard store != nil, !saveScheduled else { return }
        let now = ContinuousClock.now
        if lastSave.map({ now - $0 >= Self.saveCoalescing }) ?? true {
            saveNow()
            return
        }
        saveScheduled = true
        Task {
            try? await Task.sleep(for: Self.saveCoalescing)
            self.flushSave()
        }
    }

    /// Writes a save that is still waiting for its burst to end, now (before a short-lived
    /// process exits).
    func flushSave() {
        if saveScheduled { saveNow() }
    }

    /// Writes the state at once.
    func saveNow() {
        saveScheduled = false
        guard let store else { return }
        lastSave = ContinuousClock.now
        try? store.save(snapshot())
    }

    func snapshot() -> EngineState {
        var state = EngineState()
        state.pending = pending.values.compactMap { entry in
            (try? NotificationRequestSnapshot(entry.request)).map {
                EngineState.Pending(request: $0, anchor: entry.anchor, nextFire: entry.nextFire)
            }
        }
        state.delivered = delivered.values.compactMap { entry in
            (try? NotificationSnapshot(entry.notification)).map {
                EngineState.Delivered(notification: $0, server: entry.key.server, id: entry.key.id)
            }
        }
        state.categories = categories.values.map(NotificationCategorySnapshot.init)
        state.authorizationStatus = authorizationStatus.rawValue
        state.authorizationOptions = authorizationOptions.rawValue
        return state
    }
}
