//! The teacher's tools as their own wasm: create a class, the answer key,
//! the class's results. The app (`tellers-app`) loads this only when a
//! teacher page opens and calls [`mount_teacher_tools`]; students never
//! download it. Built by trunk beside the app (index.html).

use wasm_bindgen::prelude::*;

fn main() {}

/// The tools, mounted; dropping or [`TeacherTools::unmount`] removes them.
#[wasm_bindgen]
pub struct TeacherTools {
    _mounted: Box<dyn std::any::Any>,
}

#[wasm_bindgen]
impl TeacherTools {
    /// Removes the tools from the page.
    pub fn unmount(self) {}
}

/// Draws the teacher's tools inside `root`.
#[wasm_bindgen]
pub fn mount_teacher_tools(root: web_sys::HtmlElement) -> TeacherTools {
    console_error_panic_hook::set_once();
    TeacherTools {
        _mounted: Box::new(leptos::mount::mount_to(
            root,
            tellers::components::TeacherApp,
        )),
    }
}
