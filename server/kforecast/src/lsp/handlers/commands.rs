//! `workspace/executeCommand`, and verifying kernels on a GPU worker (on command or,
//! with `autoVerify`, once the text is still).

use super::super::*;

pub(crate) async fn execute_command(b: &Backend, params: ExecuteCommandParams) -> Result<Option<Value>> {
    let Some((uri, kernel)) = command_target(&params.arguments) else {
        return Err(Error::invalid_params(format!(
            "{} expects [{{\"uri\": <document uri>, \"kernel\"?: <name>}}]",
            params.command
        )));
    };
    b.analyze(&uri, false).await;
    match params.command.as_str() {
        VERIFY => {
            let Some(kernel) = kernel else {
                return Err(Error::invalid_params("kforecast.verify needs a kernel name"));
            };
            b.start_verify(uri, kernel).map(Some).map_err(Error::invalid_params)
        }
        name if search::COMMANDS.contains(&name) => {
            let Some(kernel) = kernel else {
                return Err(Error::invalid_params(format!("{name} needs a kernel name")));
            };
            b.search_command(name, uri, kernel).await
        }
        SET_BASELINE => {
            let count = {
                let mut st = b.state();
                let State { docs, analyzer, .. } = &mut *st;
                let Some(doc) = docs.get_mut(&uri) else {
                    return Err(Error::invalid_params(format!("{uri} is not open")));
                };
                let count = doc.set_baseline(kernel.as_deref()).map_err(Error::invalid_params)?;
                doc.analyze(analyzer);
                count
            };
            b.start_llm(&uri);
            b.publish(uri).await;
            b.refresh();
            Ok(Some(json!({"baselined": count})))
        }
        SHOW_FORECAST => {
            let (value, message) = {
                let st = b.state();
                let Some(doc) = st.docs.get(&uri) else {
                    return Err(Error::invalid_params(format!("{uri} is not open")));
                };
                let Some(name) = kernel else {
                    return Err(Error::invalid_params("kforecast.showForecast needs a kernel name"));
                };
                let Some(report) = doc.reports.iter().find(|r| r.name == name) else {
                    return Err(Error::invalid_params(format!("no kernel named `{name}` in {uri}")));
                };
                let threshold = st.settings.confidence_threshold;
                match report.forecast() {
                    Some(f) => {
                        let mut v = crate::cli::forecast_json(f, threshold);
                        v["kernel"] = name.clone().into();
                        v["baseline"] = doc.baseline.label.clone().into();
                        let msg = format!(
                            "kforecast: `{name}` {} (confidence {:.0}%) — {}",
                            f.versus(&doc.baseline.label),
                            f.confidence * 100.0,
                            f.reasons.join("; ")
                        );
                        (v, msg)
                    }
                    None => (
                        json!({"kernel": name, "changed": false}),
                        format!("kforecast: `{name}` has no forecast (unchanged or new)"),
                    ),
                }
            };
            b.client.show_message(MessageType::INFO, message).await;
            Ok(Some(value))
        }
        other => Err(Error::invalid_params(format!("unknown command `{other}`"))),
    }
}

impl Backend {
    /// Starts measuring a kernel against its baseline on a GPU worker; the result
    /// replaces the forecast inline when it comes back.
    pub(crate) fn start_verify(&self, uri: Url, kernel: String) -> std::result::Result<Value, String> {
        let prepared = {
            let mut st = self.state();
            let State { docs, analyzer, pool, .. } = &mut *st;
            let Some(doc) = docs.get_mut(&uri) else { return Err(format!("{uri} is not open")) };
            let Some(report) = doc.reports.iter().find(|r| r.name == kernel) else {
                return Err(format!("no kernel named `{kernel}` in {uri}"));
            };
            let Some(pair) = report.pair else {
                return Err(format!("`{kernel}` has no version in {} to compare with", doc.baseline.label));
            };
            if doc.verifying(report) {
                return Ok(json!({"started": false, "running": true}));
            }
            let ((bp, bt, bk), (cp, ct, ck)) = doc.sides();
            match build_job(&kernel, (&bp, &bt, &bk), (&cp, &ct, &ck)) {
                Err(errors) => {
                    let first = errors.first().map(|e| e.message.clone()).unwrap_or_default();
                    doc.spec_errors.insert(kernel.clone(), errors);
                    Err(format!("cannot verify `{kernel}`: {first}"))
                }
                Ok(req) => {
                    doc.spec_errors.remove(&kernel);
                    doc.verifications.insert(kernel.clone(), Verification::Running { pair });
                    Ok((req, bt, ct, pair, pool.clone(), analyzer.cache_arc()))
                }
            }
        };
        let (req, base_text, cand_text, pair, pool, cache) = match prepared {
            Ok(p) => p,
            Err(msg) => {
                let (client, state, uri) = (self.client.clone(), self.state.clone(), uri.clone());
                tokio::spawn(async move { publish(&client, &state, uri).await });
                return Err(msg);
            }
        };
        let (progress, learn) = {
            let mut st = self.state();
            st.jobs += 1;
            (st.progress, st.settings.learn)
        };
        let (client, state) = (self.client.clone(), self.state.clone());
        tokio::spawn(async move {
            let begin = WorkDoneProgressBegin {
                title: format!("Verifying `{kernel}` on GPU"),
                cancellable: Some(false),
                message: Some("compiling, checking outputs, timing".to_string()),
                percentage: None,
            };
            let token = format!("kforecast/verify/{}", pair.1.short());
            let work = WorkProgress::begin(&client, progress, token, begin).await;
            let job = tokio::task::spawn_blocking(move || {
                let store = cache.store_arc();
                measure_cached(&pool, store.as_deref(), &req, &base_text, &cand_text, false)
            })
            .await;
            let (m, cached) = match job {
                Ok(r) => r,
                Err(e) => {
                    (Measurement::failure(MeasureStatus::Error, format!("the verification task failed: {e}")), false)
                }
            };
            let headline = m.headline();
            {
                let mut st = lock(&state);
                st.jobs = st.jobs.saturating_sub(1);
                if let Some(doc) = st.docs.get_mut(&uri) {
                    let still =
                        matches!(doc.verifications.get(&kernel), Some(Verification::Running { pair: p }) if *p == pair);
                    if still {
                        doc.verifications
                            .insert(kernel.clone(), Verification::Done(Box::new(Verified { pair, measurement: m })));
                    }
                }
            }
            work.send(WorkDoneProgress::End(WorkDoneProgressEnd { message: Some(headline.clone()) })).await;
            let from = if cached { " (stored measurement)" } else { "" };
            client.log_message(MessageType::INFO, format!("kforecast: `{kernel}` {headline}{from}")).await;
            if learn && !cached {
                learn_from_store(&client, &state).await;
            }
            publish(&client, &state, uri).await;
            refresh(&client, &state);
        });
        Ok(json!({"started": true}))
    }

    /// With `autoVerify`, deferred forecasts of this document go to the GPU once the
    /// text has been still for a moment.
    pub(crate) fn auto_verify(&self, uri: &Url) {
        let (candidates, version) = {
            let st = self.state();
            if !st.settings.auto_verify {
                return;
            }
            let Some(doc) = st.docs.get(uri) else { return };
            let threshold = st.settings.confidence_threshold;
            let names: Vec<String> = doc
                .reports
                .iter()
                .filter(|r| r.forecast().is_some_and(|f| f.defer(threshold)))
                .filter(|r| doc.verified(r).is_none() && !doc.verifying(r) && !doc.spec_errors.contains_key(&r.name))
                .map(|r| r.name.clone())
                .collect();
            (names, doc.version)
        };
        if candidates.is_empty() {
            return;
        }
        let uri = uri.clone();
        let me = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(1500)).await;
            let still = me.state().docs.get(&uri).is_some_and(|d| d.version == version);
            if still {
                for k in candidates {
                    if let Err(e) = me.start_verify(uri.clone(), k) {
                        tracing::info!("auto-verify: {e}");
                    }
                }
            }
        });
    }
}
