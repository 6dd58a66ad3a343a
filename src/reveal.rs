//! Drawing a long page a few parts per animation frame, so that building
//! and laying it out never blocks the main thread in one long task.

use leptos::prelude::*;

/// A count of parts to show that starts at `first` and grows by `per_frame`
/// after each animation frame until it reaches `total`. Growth stops by itself
/// when the page that owns the signal is gone.
pub fn reveal_in_frames(first: usize, total: usize, per_frame: usize) -> RwSignal<usize> {
    let shown = RwSignal::new(first.min(total));
    grow_each_frame(shown, total, per_frame.max(1));
    shown
}

fn grow_each_frame(shown: RwSignal<usize>, total: usize, per_frame: usize) {
    if shown.get_untracked() >= total {
        return;
    }
    // After the next frame, in a task of its own: a part built inside the
    // frame's callback shared its task with that frame's layout (at
    // start-up, the page's first layout), which made one long task of two.
    request_animation_frame(move || {
        set_timeout(
            move || {
                // `None` once the page has been left: stop.
                if shown
                    .try_update(|n| *n = (*n + per_frame).min(total))
                    .is_some()
                {
                    grow_each_frame(shown, total, per_frame);
                }
            },
            std::time::Duration::ZERO,
        );
    });
}
