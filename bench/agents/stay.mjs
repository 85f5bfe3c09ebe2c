// Bench agent: every person stays. Measures the module host's round trip.
export function makeAgent() {
  return {
    act(observation) {
      const actions = {};
      for (const person of observation.people) actions[person.id] = 'STAY';
      return actions;
    },
  };
}
