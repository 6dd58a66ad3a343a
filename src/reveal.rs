//! Drawing a long page a few parts per animation frame, so that building
//! and laying it out never blocks the main thread in one long task.

use leptos::prelude::*;

/// A count of parts to show that starts at `first` and grows by `per_frame`
/// after each animation frame until it reaches `total`. Growth stops by itself
/// when the page that owns the signal is gone.
pub fn reveal_in_frames(first: usize, total: usize, per_frame: usize) -> RwSignal<usize> {
    reveal_in_steps(even_steps(first, total, per_frame))
}

/// A count of parts to show that takes each value of `steps` in turn (a
/// count, rising), one step after each animation frame; no steps show
/// nothing. Growth stops by itself when the page that owns the signal is
/// gone.
pub fn reveal_in_steps(steps: Vec<usize>) -> RwSignal<usize> {
    let shown = RwSignal::new(steps.first().copied().unwrap_or(0));
    grow_each_frame(shown, steps, 1);
    shown
}

fn grow_each_frame(shown: RwSignal<usize>, steps: Vec<usize>, next: usize) {
    let Some(&count) = steps.get(next) else {
        return;
    };
    // After the next frame, in a task of its own: a part built inside the
    // frame's callback shared its task with that frame's layout (at
    // start-up, the page's first layout), which made one long task of two.
    request_animation_frame(move || {
        set_timeout(
            move || {
                // `None` once the page has been left: stop.
                if shown.try_set(count).is_none() {
                    grow_each_frame(shown, steps, next + 1);
                }
            },
            std::time::Duration::ZERO,
        );
    });
}

/// The counts shown after each step when the first step shows `first` parts
/// and each later step `per_step` more, up to `total`.
fn even_steps(first: usize, total: usize, per_step: usize) -> Vec<usize> {
    let mut steps = vec![first.min(total)];
    let mut n = first.min(total);
    while n < total {
        n = (n + per_step.max(1)).min(total);
        steps.push(n);
    }
    steps
}

/// The counts shown after each step when parts cost `costs` to build (any
/// unit, e.g. a paragraph = 1) and a step builds parts in order while they
/// fit in its budget: `first_budget` for the first step (which also builds
/// whatever surrounds the parts), `budget` for the others. A part costlier
/// than a budget gets a step of its own; the first step may show none.
pub fn steps_by_cost(costs: &[u32], first_budget: u32, budget: u32) -> Vec<usize> {
    let mut steps = Vec::new();
    let (mut n, mut spent, mut limit) = (0, 0, first_budget);
    for (i, &cost) in costs.iter().enumerate() {
        // Every step but the first holds at least the part that opened it.
        if spent + cost > limit {
            steps.push(n);
            (spent, limit) = (0, budget);
        }
        spent += cost;
        n = i + 1;
    }
    if steps.last() != Some(&n) {
        steps.push(n);
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_steps_grow_by_the_step_up_to_the_total() {
        assert_eq!(even_steps(2, 7, 2), vec![2, 4, 6, 7]);
        assert_eq!(even_steps(0, 3, 1), vec![0, 1, 2, 3]);
        assert_eq!(even_steps(5, 3, 1), vec![3]);
        assert_eq!(even_steps(0, 0, 1), vec![0]);
    }

    #[test]
    fn parts_fill_each_step_up_to_its_budget() {
        // A paragraph (1), a predict box (2), a simulation (4), a
        // paragraph and two exercises (2 each): budget 2 first, then 4.
        let costs = [1, 2, 4, 1, 2, 2, 2, 1];
        assert_eq!(steps_by_cost(&costs, 2, 4), vec![1, 2, 3, 5, 7, 8]);
    }

    #[test]
    fn a_part_over_budget_gets_a_step_of_its_own() {
        assert_eq!(steps_by_cost(&[4, 1], 2, 2), vec![0, 1, 2]);
        assert_eq!(steps_by_cost(&[1, 9, 9, 1], 4, 4), vec![1, 2, 3, 4]);
    }

    #[test]
    fn every_part_is_shown_in_the_end() {
        assert_eq!(steps_by_cost(&[], 2, 4), vec![0]);
        assert_eq!(steps_by_cost(&[1], 2, 4), vec![1]);
        assert_eq!(steps_by_cost(&[1, 1, 1], 9, 9), vec![3]);
    }
}
