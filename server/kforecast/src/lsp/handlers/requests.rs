//! Read-only requests about a document: inlay hints, lenses, hovers, code actions.
//! Each is answered for the document's current text, or `ContentModified` when an
//! edit that came after it is already queued.

use super::super::*;

pub(crate) async fn inlay_hint(b: &Backend, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
    b.look_at(&params.text_document.uri, params.range);
    let st = b.for_request(&params.text_document.uri).await?;
    let Some(doc) = st.docs.get(&params.text_document.uri) else { return Ok(None) };
    Ok(Some(to_proto::inlay_hints(doc, params.range, st.encoding, st.settings.confidence_threshold)))
}

pub(crate) async fn code_lens(b: &Backend, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
    let st = b.for_request(&params.text_document.uri).await?;
    let uri = params.text_document.uri;
    let Some(doc) = st.docs.get(&uri) else { return Ok(None) };
    Ok(Some(to_proto::code_lenses(doc, &uri, st.encoding, st.settings.confidence_threshold)))
}

pub(crate) async fn hover(b: &Backend, params: HoverParams) -> Result<Option<Hover>> {
    let pos = params.text_document_position_params;
    b.look_at(&pos.text_document.uri, Range::new(pos.position, pos.position));
    let st = b.for_request(&pos.text_document.uri).await?;
    let Some(doc) = st.docs.get(&pos.text_document.uri) else { return Ok(None) };
    let offset = to_offset(doc.src.rope(), pos.position, st.encoding);
    Ok(to_proto::hover(doc, offset, st.encoding, st.settings.confidence_threshold, st.analyzer.device()))
}

pub(crate) async fn code_action(b: &Backend, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
    let st = b.for_request(&params.text_document.uri).await?;
    let uri = params.text_document.uri;
    let Some(doc) = st.docs.get(&uri) else { return Ok(None) };
    let mut actions = to_proto::code_actions(doc, &uri, params.range, st.encoding, st.settings.confidence_threshold);
    actions.extend(search::code_actions(&st, doc, &uri, params.range, st.encoding));
    Ok(Some(actions))
}
