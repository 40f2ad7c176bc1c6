import PluginFixtures
import QuoteLibrary

/// The pipeline's budget deadline on the tests' manual clock.
extension ManualClock: BudgetClock {}
