//! Where inside the lessons the URL points: the table of contents, one
//! lesson (optionally one exercise in it), or the teacher's answer key.

use crate::course_data::course;
use tellers_sim::query::percent_decode;

/// A place inside `#/lessons…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonPath {
    /// `#/lessons`: the table of contents.
    Contents,
    /// `#/lessons/SLUG` or `#/lessons/SLUG/EXERCISE-ID`.
    Lesson {
        /// The lesson's slug.
        slug: String,
        /// The exercise to scroll to, if any.
        exercise: Option<String>,
    },
    /// `#/lessons/answer-key?class=CODE`: the teacher's answer key.
    AnswerKey {
        /// The class code.
        class: String,
    },
    /// A lesson slug that does not exist.
    Unknown {
        /// The slug asked for.
        slug: String,
    },
}

/// Read the lessons part of a hash such as `#/lessons/littles-law/threads-busy`.
pub fn lesson_path(hash: &str) -> LessonPath {
    let path = hash.trim_start_matches('#').trim_start_matches('/');
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let mut parts = path
        .trim_matches('/')
        .split('/')
        .skip(1)
        .filter(|p| !p.is_empty());
    let Some(slug) = parts.next() else {
        return LessonPath::Contents;
    };
    if slug == "answer-key" {
        let class = query
            .split('&')
            .find_map(|kv| kv.strip_prefix("class="))
            .map(|c| percent_decode(c).trim().to_string())
            .unwrap_or_default();
        return LessonPath::AnswerKey { class };
    }
    if course().lesson(slug).is_none() {
        return LessonPath::Unknown {
            slug: slug.chars().take(60).collect(),
        };
    }
    LessonPath::Lesson {
        slug: slug.to_string(),
        exercise: parts.next().map(str::to_string),
    }
}

/// The link to a lesson, or to one exercise in it.
pub fn lesson_href(slug: &str, exercise: Option<&str>) -> String {
    match exercise {
        Some(id) => format!("#/lessons/{slug}/{id}"),
        None => format!("#/lessons/{slug}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_inside_the_lessons() {
        assert_eq!(lesson_path("#/lessons"), LessonPath::Contents);
        assert_eq!(lesson_path("#/lessons/"), LessonPath::Contents);
        let first = &course().lessons[0].slug;
        assert_eq!(
            lesson_path(&format!("#/lessons/{first}")),
            LessonPath::Lesson {
                slug: first.clone(),
                exercise: None
            }
        );
        assert_eq!(
            lesson_path(&format!("#/lessons/{first}/some-id")),
            LessonPath::Lesson {
                slug: first.clone(),
                exercise: Some("some-id".into())
            }
        );
        assert_eq!(
            lesson_path("#/lessons/answer-key?class=Room%2012"),
            LessonPath::AnswerKey {
                class: "Room 12".into()
            }
        );
        assert_eq!(
            lesson_path("#/lessons/nope"),
            LessonPath::Unknown {
                slug: "nope".into()
            }
        );
    }
}
