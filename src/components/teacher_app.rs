use leptos::prelude::*;
use std::sync::Arc;
use tellers_course::Course;

use super::lessons_page::with_course;
use super::{AnswerKey, ClassResults, ClassWorksheets, TeacherPage};
use crate::course_data::CourseLoader;
use crate::route::{lesson_path, watch_hash, LessonPath};

/// The teacher's tools: create a class, the answer key, the class's
/// results, a class's worksheets. They are a second wasm
/// (`src/bin/teacher.rs`), which the app loads only when a teacher page
/// opens ([`super::TeacherTools`]), so students never download them.
/// Mounted inside the app's page, they follow the hash and fetch the
/// course themselves (from the cache, as a rule: the app has fetched it
/// already).
#[component]
pub fn TeacherApp() -> impl IntoView {
    let hash = watch_hash();
    let path = Memo::new(move |_| lesson_path(&hash.get()));
    let course = CourseLoader::new().want();
    with_course(course, path, teacher_page)
}

/// The teacher's page a path opens (nothing for the others: the app is
/// about to unmount these tools).
fn teacher_page(course: Arc<Course>, path: LessonPath) -> AnyView {
    match path {
        LessonPath::Teacher => view! { <TeacherPage /> }.into_any(),
        LessonPath::AnswerKey { class, lesson } => {
            view! { <AnswerKey course class lesson /> }.into_any()
        }
        LessonPath::Results { class } => view! { <ClassResults course class /> }.into_any(),
        LessonPath::ClassWorksheets { slug, class, names } => {
            view! { <ClassWorksheets course slug class names /> }.into_any()
        }
        _ => ().into_any(),
    }
}
