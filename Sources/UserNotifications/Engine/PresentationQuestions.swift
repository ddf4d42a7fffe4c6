/// Presentation questions asked one at a time, in the order they come, each answer told before
/// the next question is asked: an engine posts in the order of the answers, so a host that asks
/// another process (the agent asking an app's center) keeps the app's adds in the order it made
/// them, where a task per question could ask, and answer, in any order.
package final class PresentationQuestions: Sendable {
    private struct Question: Sendable {
        let ask: @Sendable () async -> UNNotificationPresentationOptions
        let then: @Sendable (UNNotificationPresentationOptions) -> Void
    }

    private let questions: AsyncStream<Question>.Continuation

    /// Starts the queue; it ends when the object goes.
    package init() {
        let (stream, questions) = AsyncStream.makeStream(of: Question.self)
        self.questions = questions
        Task {
            for await question in stream { question.then(await question.ask()) }
        }
    }

    deinit {
        questions.finish()
    }

    /// Asks `ask` once every question before it is answered, and hands its answer to `then`.
    package func ask(
        _ ask: @escaping @Sendable () async -> UNNotificationPresentationOptions,
        then: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) {
        questions.yield(Question(ask: ask, then: then))
    }
}
